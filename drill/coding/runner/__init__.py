"""The app side of a run: prepare it, start the test process, supervise it, judge it.

api.run_tests is the one entry; invocation.py makes the private scratch copy and the request,
cold.py and warm.py start the test process (a fresh `python -m drill.coding.sandbox.child`, or a
fork of the warm worker, worker.py), supervise.py holds the deadline, the memory watch and the
kills, and result.py turns the signed report and the process's end into the verdict.
"""
