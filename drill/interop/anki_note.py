"""The Anki note type drill exports ("drill card") and its fields; the text importer reads the
Id field back so a card that went from drill to Anki returns with its own id."""

MODEL_NAME = "drill card"
FIELDS = ("Front", "Back", "Notes", "Id", "Source", "Errata")
ID_FIELD = FIELDS.index("Id")
