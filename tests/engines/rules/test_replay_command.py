"""``manage.py replay``: a JSON Lines log in, the decisions out; bad input exits 2."""

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

ROOT = Path(__file__).resolve().parents[3]
HEADER = '{"ruleset": "riobamba", "settings": {}, "players": 4, "first_dealer": "A1"}'


def run(text, tmp_path):
    path = tmp_path / "log.jsonl"
    path.write_text(text, encoding="utf-8")
    out = io.StringIO()
    call_command("replay", str(path), stdout=out)
    return json.loads(out.getvalue())


def test_a_file_is_replayed_to_one_json_object(tmp_path):
    text = (
        "\n".join([HEADER, '{"kind": "mano"}', '{"kind": "caida", "pair": "A"}', '{"kind": "void", "target": 2}'])
        + "\n"
    )
    result = run(text, tmp_path)
    assert [d["seq"] for d in result["decisions"]] == [1, 2, 3]
    assert result["decisions"][1]["voided_by"] == 3
    assert result["state"]["phase"] == "play" and result["state"]["scores"] == {"A": 0, "B": 0}


def test_blank_lines_are_ignored_and_claims_numbered_in_order(tmp_path):
    text = f'\n{HEADER}\n\n{{"kind": "mano"}}\n   \n{{"kind": "void", "target": 1}}\n\n'
    result = run(text, tmp_path)
    assert [d["kind"] for d in result["decisions"]] == ["mano", "void"]
    assert result["decisions"][0]["voided_by"] == 2


def test_the_header_carries_the_rule_set_and_the_table(tmp_path):
    header = json.dumps({"ruleset": "pichincha", "settings": {"doble_ronda": 4}, "players": 2, "first_dealer": "B1"})
    result = run(f'{header}\n{{"kind": "mano"}}\n{{"kind": "doble_ronda", "pair": "A"}}\n', tmp_path)
    assert result["decisions"][1]["points"] == {"A": 4, "B": 0}
    assert result["state"]["seats"] == ["A1", "B1"] and result["decisions"][0]["dealer"] == "B1"


def test_stdin_is_read_with_a_dash():
    out = io.StringIO()
    call_command("replay", "-", stdin=io.StringIO(f'{HEADER}\n{{"kind": "mano"}}\n'), stdout=out)
    assert json.loads(out.getvalue())["state"]["mano"] == 1


@pytest.mark.parametrize(
    "lines, fragment",
    [
        ([HEADER, '{"kind": "mano"}', "{not json"], "line 3"),
        ([HEADER, '{"kind": "mano"}', '{"kind": "caida", "pair": "C"}'], "line 3"),
        ([HEADER, '{"kind": "escalera"}'], "Unknown claim kind"),
        ([HEADER, '{"kind": "ajuste", "pair": "A", "points": 2}'], "missing field 'reason'"),
        (['{"ruleset": "quito"}'], "Unknown profile"),
        (['{"ruleset": "riobamba", "settings": {"caida_limpia_points": 3}}'], "Bad value 3"),
        (['{"ruleset": "riobamba", "players": 3}'], "2 or 4 players"),
        (['{"ruleset": "riobamba", "players": 2, "first_dealer": "B2"}'], "first dealer"),
        (['{"ruleset": "riobamba", "mesa": 1}'], "unknown header fields"),
        (['{"settings": {}}'], "no 'ruleset'"),
        (['["riobamba"]'], "header must be a JSON object"),
        (['{"ruleset": "riobamba", "players": 2}', '{"kind": "caida", "pair": "A", "player": 2}'], "line 2"),
        ([], "header is missing"),
    ],
)
def test_malformed_input_exits_2_naming_the_line(tmp_path, lines, fragment):
    with pytest.raises(CommandError, match=fragment) as raised:
        run("\n".join(lines), tmp_path)
    assert raised.value.returncode == 2


def test_a_missing_file_exits_2(tmp_path):
    with pytest.raises(CommandError, match="cannot read") as raised:
        call_command("replay", str(tmp_path / "none.jsonl"))
    assert raised.value.returncode == 2


def test_a_byte_order_mark_is_not_a_claim(tmp_path):
    path = tmp_path / "log.jsonl"
    path.write_bytes(("\ufeff" + HEADER + "\n" + '{"kind": "mano"}').encode("utf-8"))
    out = io.StringIO()
    call_command("replay", str(path), stdout=out)
    assert json.loads(out.getvalue())["state"]["mano"] == 1


def test_a_file_that_is_not_utf8_exits_2(tmp_path):
    path = tmp_path / "log.jsonl"
    path.write_bytes(b'{"ruleset": "riobamba"}\n{"kind": "\xff"}\n')
    with pytest.raises(CommandError, match="cannot read") as raised:
        call_command("replay", str(path))
    assert raised.value.returncode == 2


def manage(args, stdin):
    return subprocess.run(
        [sys.executable, "manage.py", "replay", *args],
        input=stdin,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.slow
def test_the_command_line_prints_json_and_exits_0():
    done = manage(["-"], f'{HEADER}\n{{"kind": "mano"}}\n{{"kind": "ronda", "pair": "B", "player": 1}}\n')
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["state"]["scores"] == {"A": 0, "B": 2}


@pytest.mark.slow
def test_the_command_line_exits_2_with_a_message_and_no_traceback():
    done = manage(["-"], f'{HEADER}\n{{"kind": "mano"}}\n{{"kind": "caida", "pair": "A", "player": 5}}\n')
    assert done.returncode == 2 and done.stdout == ""
    assert "line 3" in done.stderr and "Traceback" not in done.stderr
