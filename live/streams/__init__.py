"""The live streams (server-sent events) that replace polling: ``hub`` hands changes out, ``app`` serves them."""
