"""The operators' guides at /ayuda/: one page per audience, Spanish first and English second (Django i18n)."""
