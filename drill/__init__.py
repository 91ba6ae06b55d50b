"""drill: a terminal trainer for ML-systems and ML-performance interviews."""

__version__ = "0.1.0"
