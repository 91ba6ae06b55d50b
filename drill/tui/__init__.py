"""The Textual interface: screens show one thing each; logic lives outside this package."""
