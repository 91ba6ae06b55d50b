"""Anki's HTML fields as Markdown-ish text: line breaks kept, emphasis, lists and code marked, tags gone."""

from __future__ import annotations

import re
from html.parser import HTMLParser

LINE_TAGS = {"div", "li", "tr", "dt", "dd"}
PARAGRAPH_TAGS = {"p", "ul", "ol", "table", "blockquote", "h1", "h2", "h3", "h4", "h5", "h6", "hr"}
MARKS = {"b": "**", "strong": "**", "i": "*", "em": "*"}
HIDDEN = {"script", "style"}


class _Converter(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.text = ""
        self.hidden = 0
        self.pre = 0
        self.links: list[str | None] = []

    def _break(self, newlines: int) -> None:
        """End the current line (or paragraph) unless the text already does."""
        if not self.text:
            return
        self.text = self.text.rstrip(" ")
        missing = newlines - (len(self.text) - len(self.text.rstrip("\n")))
        self.text += "\n" * max(0, missing)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        if tag in HIDDEN:
            self.hidden += 1
        elif tag == "br":
            self.text = self.text.rstrip(" ") + "\n"
        elif tag in LINE_TAGS:
            self._break(1)
            if tag == "li":
                self.text += "- "
        elif tag in PARAGRAPH_TAGS:
            self._break(2)
        elif tag == "pre":
            self._break(2)
            self.text += "```\n"
            self.pre += 1
        elif tag in MARKS:
            self.text += MARKS[tag]
        elif tag == "code" and not self.pre:
            self.text += "`"
        elif tag == "img":
            self.text += f"![{attributes.get('alt') or ''}]({attributes.get('src') or ''})"
        elif tag == "a":
            self.links.append(attributes.get("href"))
            if attributes.get("href"):
                self.text += "["

    def handle_endtag(self, tag: str) -> None:
        if tag in HIDDEN:
            self.hidden = max(0, self.hidden - 1)
        elif tag in LINE_TAGS:
            self._break(1)
        elif tag in PARAGRAPH_TAGS:
            self._break(2)
        elif tag == "pre" and self.pre:
            self.pre -= 1
            self.text = self.text.rstrip("\n") + "\n```"
            self._break(2)
        elif tag in MARKS:
            self.text += MARKS[tag]
        elif tag == "code" and not self.pre:
            self.text += "`"
        elif tag == "a" and self.links:
            href = self.links.pop()
            if href:
                self.text += f"]({href})"

    def handle_data(self, data: str) -> None:
        if self.hidden:
            return
        if not self.pre:
            data = re.sub(r"\s+", " ", data.replace("\xa0", " "))
            if not self.text or self.text.endswith("\n"):
                data = data.lstrip(" ")
        self.text += data


def html_to_text(html: str) -> str:
    """The field's text as a reader would see it, in Markdown where the HTML marked something up."""
    converter = _Converter()
    converter.feed(html)
    converter.close()
    return re.sub(r"\n{3,}", "\n\n", converter.text).strip()
