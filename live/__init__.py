"""Saying "this mesa changed" to every process that serves live streams (see ``broker`` and ``notify``)."""
