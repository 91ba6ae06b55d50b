"""What the tests share, one idea a module. Test modules import from here (tests/ is on sys.path:
pytest puts the root conftest's folder there), never from one another; tests/system/test_layout.py checks it."""
