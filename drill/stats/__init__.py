"""Figures for the dashboard and `drill stats`; pure queries, no Textual."""
