"""Voids: the juez cancels an earlier claim of the log (Art. 16; rulings in docs/REGLAS.md).

Rules
-----
- A ``void`` names the seq of an earlier claim, its *target*; the rest of
  the log is then replayed without the voided claim, so a voided claim
  never happened.
- A void is refused when its target does not exist or is not earlier
  (``anulacion_sin_objetivo``) or is already voided at that point
  (``anulacion_repetida``). A refused void changes nothing.
- How far back a void reaches (rulings "anulaciones", "sin jugada"): into
  the current chica, or to the claim that ended the previous chica while
  no claim at all, accepted or refused, follows it (the juez's immediate
  correction, which reopens that chica); older is the Director's to
  correct with an ``ajuste`` (Art. 18): ``anulacion_fuera_de_alcance``.
  A finished mesa takes no void (``mesa_terminada``), a suspended one only
  the Director's (``mesa_suspendida``). What a void may cancel (ruling
  "anular"): never a refused claim (``anulacion_de_negativa``), a
  ``suspender`` or a ``reanudar`` (``anulacion_de_suspension``); a
  ``mano`` only while no claim is logged in it (``anulacion_de_mano``).
  The referee checks these, since they depend on where the mesa stands
  (``referee.replay``).
- Voiding an accepted void restores that void's target (and voiding the
  restoring void cancels it again: the effect follows the chain).
- Voids never score; a voided claim's decision is refused with code
  ``anulada`` and ``voided_by`` the void that cancelled it.

This module keeps the chain: which seqs are voided, and by which void.
"""

from __future__ import annotations


class Voids:
    """The voids accepted so far along the log, and what they cancel."""

    def __init__(self) -> None:
        self.targets: dict[int, int] = {}  # accepted void -> its target
        self.voided_by: dict[int, int] = {}  # voided seq -> the void that cancelled it
        self.codes: dict[int, str | None] = {}  # each void's seq -> None (accepted) or its code
        self.changed = 0  # while a void is applied: the earliest seq it changes

    def check(self, seq: int, target: int) -> str | None:
        """The code that refuses void ``seq`` of ``target`` by the log alone, or None."""
        if not 1 <= target < seq:
            return "anulacion_sin_objetivo"
        if target in self.voided_by:
            return "anulacion_repetida"
        return None

    def refuse(self, seq: int, code: str) -> None:
        self.codes[seq] = code

    def accept(self, seq: int, target: int) -> int:
        """Void ``seq`` cancels ``target`` (and restores what ``target`` had voided).

        Returns the earliest seq whose fate changed: the log is decided
        again from there.
        """
        self.codes[seq] = None
        self.targets[seq] = target
        self.changed = target
        self._apply(seq)
        return self.changed

    def _cancel(self, void: int) -> None:
        # ``void`` has just been voided: its target comes back, and if the
        # target is itself an accepted void, that void's effect returns.
        target = self.targets[void]
        if self.voided_by.get(target) == void:
            del self.voided_by[target]
            self.changed = min(self.changed, target)
            if target in self.targets:
                self._apply(target)

    def _apply(self, void: int) -> None:
        target = self.targets[void]
        if target in self.voided_by:
            return
        self.voided_by[target] = void
        self.changed = min(self.changed, target)
        if target in self.targets:
            self._cancel(target)
