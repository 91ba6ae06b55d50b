"""The review screen's card views, one per kind of item; each posts Graded when the item is answered."""
