"""The pure engines both apps stand on: plain Python, no Django, nothing of the project.

- ``rules``: the rules engine of Cuarenta (a mesa's claim log decided, the rule sets, the levante);
- ``bracket``: the bracket engine (draws, advancement, group standings);
- ``text`` and ``lookalikes``: the one check of every typed text, and the key names are compared by.
"""
