"""The audit trail: who changed a championship, when, from where, and what changed.

See ``audit.models`` for the terms and ``audit.registration`` for what is recorded.
"""
