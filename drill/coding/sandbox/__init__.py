"""The test side of a run: the contained child that runs the hidden tests and signs its report.

child.py is the process (`python -m drill.coding.sandbox.child`, or forked by the warm worker);
contain.py cuts it off (namespaces, else a subreaper), guard.py refuses the candidate's reads
of hidden files, plugin.py is the pytest Reporter, limits.py its memory caps, timing.py times a
pass against the reference. Nothing here imports drill.coding.runner: the runner starts this
side, never the other way round (tests/unit/coding/test_coding_layering.py checks it).
"""
