"""One screen per mode: home, review, session summary."""
