"""Suspend, unsuspend, forget and edit, as the card browser and card info both offer them: the write
goes through the study's writer, and once it has committed the item's row is read back and handed
to `row_changed` (a failed write is said by the app and changes nothing shown)."""

from __future__ import annotations

from concurrent.futures import Future
from pathlib import Path
from typing import TYPE_CHECKING

from textual import work
from textual.screen import ScreenResultType

from drill.tui.dialogs.confirm import Confirm
from drill.tui.routes import RoutedScreen
from drill.tui.screens.review import EDITABLE_KINDS, card_name
from drill.tui.workers import ShowsWorkerFailures
from drill.words import counted

if TYPE_CHECKING:
    from drill.content.errors import ContentError
    from drill.store.browse import ItemRow
    from drill.study import Study


class ItemActions(ShowsWorkerFailures, RoutedScreen[ScreenResultType]):
    """A screen that has `study` and shows item rows."""

    study: Study

    def row_changed(self, row: ItemRow) -> None:
        """Show `row`, just read back after a write."""
        raise NotImplementedError

    def toggle_suspended(self, row: ItemRow) -> None:
        suspend = not row.suspended
        self.reread(self.study.reviews.save_suspended(row.item_id, suspend), row.item_id)
        if suspend:
            self.notify(f"Suspended {card_name(row)}; `s` again unsuspends it.", timeout=3)
        else:
            self.notify(f"Unsuspended {card_name(row)}; it comes up in reviews again.", timeout=3)

    def forget(self, row: ItemRow) -> None:
        """Ask, then put the item back to new; its history stays."""

        def answered(yes: bool | None) -> None:
            if yes:
                self.reread(self.study.reviews.save_forget(row.item_id), row.item_id)
                self.notify(f"Forgot {card_name(row)}: it is new again, its history kept.", timeout=3)

        history = f"its history keeps its {counted(row.reviews, 'review')}" if row.reviews else "it has no reviews"
        self.app.push_screen(Confirm(f"Forget {card_name(row)}? It goes back to new; {history}."), answered)

    def edit(self, row: ItemRow) -> None:
        """Open a card or pitch in $VISUAL / $EDITOR at its line, as the review's `e` does (a shipped
        card of an installed drill: its copy in the override deck); back from the editor its deck is
        re-read and synced, the id, schedule and history kept."""
        from drill.tui.editor import edit_item

        if row.kind not in EDITABLE_KINDS:
            self.notify(
                f"Only cards and pitches open in the editor; {card_name(row)} lives in its own files.",
                severity="warning",
            )
            return
        opened = edit_item(self, self.study, row.item_id, card_name(row))
        if opened is not None:
            target, edited = opened
            self.reread(edited, row.item_id, Path(target.path))

    @work(thread=True, group="browser", exit_on_error=False)
    def reread(
        self, written: Future[None] | Future[list[ContentError]], item_id: str, edited: Path | None = None
    ) -> None:
        """Once `written` has committed, read the item back and show it; an `edited` file's errors
        (the edit was refused) are said instead."""
        if written.exception() is not None:
            return  # the app has said it was not saved
        errors = written.result()
        if edited is not None and errors:
            from drill.tui.editor import say_refused

            self.app.call_from_thread(say_refused, self, edited, errors)
            return
        from drill.store.browse import item_row

        row = item_row(self.study.engine, item_id, self.study.config.leech_threshold)
        if row is not None:
            self.app.call_from_thread(self.row_changed, row)
            if edited is not None:
                self.app.call_from_thread(self.notify, f"Saved your edit of {card_name(row)}.", timeout=4)
