"""The rules of Three Thirteen and 13-card Rummy as plain Python: no Django in here."""
