"""Appeals to the championship's Director (Art. 17).

- ``procedure``: the rules (the window, who files, who admits, dismisses
  and rules, what a ruling changes in the claim log).
- ``forms``, ``views``: filing one at the table, and the Director's desk.
- ``urls_juez`` (filing, under ``/mesa/``, namespace ``refereeing``) and
  ``urls_director`` (the desk, under ``/apelaciones/``, namespace ``appeals``).
"""
