"""What the app knows without Streamlit: the example (model, validation, codec, presets, paste),
the texts (i18n), the views' data and the charts (Altair specs), the notebooks, the poll store
and the class's addresses. A notebook or a script imports these alone; nothing here reads a
session or draws a widget. ``ruff.toml`` beside this file bans Streamlit here, and
``tests/ui/test_layers.py`` keeps these modules from importing the layers above them."""
