"""Voids: the juez cancels an earlier claim of the log (Art. 16), resolved before the replay.

Rules (project rulings)
-----------------------
- A ``void`` names the seq of an earlier claim, its *target*. Voids are
  resolved first, walking the log forward; the rest of the log is then
  replayed without the voided claims, so a voided claim never happened.
- A void is refused when its target does not exist or is not earlier
  (``anulacion_sin_objetivo``) or is already voided at that point
  (``anulacion_repetida``). A refused void changes nothing.
- Voiding an accepted void restores that void's target (and voiding the
  restoring void cancels it again: the effect follows the chain).
- Voids never score; a voided claim's decision is refused with code
  ``anulada`` and ``voided_by`` the void that cancelled it.
"""

from __future__ import annotations


def resolve_voids(claims: list[dict]) -> tuple[dict[int, int], dict[int, str | None]]:
    """The voided seqs and the voids' decisions for ``claims`` (1-based seqs).

    Returns ``(voided_by, void_codes)``: ``voided_by`` maps each voided
    seq to the void that cancelled it; ``void_codes`` maps each void's seq
    to ``None`` (accepted) or its refusal code.
    """
    targets: dict[int, int] = {}  # accepted void -> its target
    voided_by: dict[int, int] = {}
    codes: dict[int, str | None] = {}

    def cancel(void: int) -> None:
        # ``void`` has just been voided: its target comes back, and if the
        # target is itself an accepted void, that void's effect returns.
        target = targets[void]
        if voided_by.get(target) == void:
            del voided_by[target]
            if target in targets:
                apply(target)

    def apply(void: int) -> None:
        target = targets[void]
        if target in voided_by:
            return
        voided_by[target] = void
        if target in targets:
            cancel(target)

    for seq, claim in enumerate(claims, 1):
        if claim["kind"] != "void":
            continue
        target = claim["target"]
        if not 1 <= target < seq:
            codes[seq] = "anulacion_sin_objetivo"
        elif target in voided_by:
            codes[seq] = "anulacion_repetida"
        else:
            codes[seq] = None
            targets[seq] = target
            apply(seq)
    return voided_by, codes
