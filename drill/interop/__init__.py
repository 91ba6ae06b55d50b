"""Moving cards and history in and out of drill."""
