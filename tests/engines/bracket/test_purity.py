"""The bracket engine is plain Python: importing it loads no Django."""

import subprocess
import sys
from pathlib import Path


def test_importing_the_engine_loads_no_django():
    code = (
        "import sys, engines.bracket, engines.bracket.groups; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'django'))"
    )
    root = Path(__file__).resolve().parents[3]
    output = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True)
    assert output.stdout.strip() == "[]"
