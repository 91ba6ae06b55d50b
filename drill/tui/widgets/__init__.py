"""Small widgets shared by screens."""
