"""Cold start: `drill` to first paint of home (and to counts shown) vs a hello Textual app with
the same Header and Footer (home's, with home's key bindings in it).

Each run is a fresh interpreter; both apps are timed alternately in the same run. Prints JSON.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HELLO = """
import os, time
from textual.app import App
from textual.widgets import Footer, Header, Static
class Hello(App):
    BINDINGS = [(key, key, word) for key, word in zip("rcmhkbsi", ("Review", "Custom", "Mock", "Rounds",
        "Drills", "Browse", "Stats", "Date"))]
    def compose(self):
        yield Header()
        yield Static("hello")
        yield Footer(compact=True, show_command_palette=False)
    def on_mount(self):
        self.call_after_refresh(self.done)
    def done(self):
        print(time.time() - float(os.environ["T0"]), flush=True)
        self.exit()
Hello().run(headless=True)
"""

DRILL = """
import os, time
from drill.paths import Paths
from drill.tui.app import DrillApp
from drill.tui.screens.home import HomeScreen

def report():
    print(time.time() - float(os.environ["T0"]), flush=True)

show = HomeScreen.show
def show_then_exit(screen, home):
    show(screen, home)
    screen.app.call_after_refresh(lambda: (report(), screen.app.exit()))
HomeScreen.show = show_then_exit

class Timed(DrillApp):
    def on_mount(self):  # Textual calls DrillApp.on_mount too (every class's handler runs)
        self.call_after_refresh(report)
Timed(Paths.resolve()).run(headless=True)
"""


# Bytecode is kept here for every run, as an installed drill has its own: where the environment
# asks for none (PYTHONDONTWRITEBYTECODE), each run would compile every module edited since the
# last .pyc in the tree, which the hello app never does.
BYTECODE = Path(tempfile.gettempdir()) / "drill-bench-startup-bytecode"


def timed(script: str, home: str) -> list[float]:
    env = {**os.environ, "DRILL_HOME": home, "PYTHONPYCACHEPREFIX": str(BYTECODE), "T0": repr(time.time())}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    out = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True, timeout=60
    ).stdout
    return [float(line) for line in out.split()]


def main(runs: int = 15) -> None:
    home = tempfile.mkdtemp(prefix="drill-bench-")
    timed(HELLO, home)  # first runs compile, create and sync the database; later runs are the daily case
    timed(DRILL, home)
    hello, first_paint, counts = [], [], []
    for _ in range(runs):
        hello.append(timed(HELLO, home)[0])
        paint, ready = timed(DRILL, home)[:2]  # home may be shown again before the app exits
        first_paint.append(paint)
        counts.append(ready)
    median = statistics.median
    print(
        json.dumps(
            {
                "runs": runs,
                "hello_first_paint_s": round(median(hello), 4),
                "drill_home_first_paint_s": round(median(first_paint), 4),
                "drill_home_counts_shown_s": round(median(counts), 4),
                "ratio_first_paint_vs_hello": round(median(first_paint) / median(hello), 3),
                "target_ratio": 1.1,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
