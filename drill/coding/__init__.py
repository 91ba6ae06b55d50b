"""Coding drills: kernels/<id>/ on disk, workspaces, runs of the hidden tests, verify, grades.

A run crosses one process boundary. runner/ is the app side: it prepares a private scratch
copy, starts the test process (cold, or forked by the warm worker), supervises it, and judges
the run from what it observed itself. sandbox/ is the test side: the contained child that runs
pytest, with no way to the reference or the user's data. They meet only through signed.py (the
HMAC-signed report) and what processes.py sees of the process tree. Nothing here imports
Textual; torch is imported only in the test processes and the warm worker.
"""
