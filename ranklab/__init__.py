"""Ranklab's front-end components: their JavaScript and CSS, which Streamlit serves.

Each folder is one component's asset directory, declared in the manifest beside this file
(``pyproject.toml``, ``[tool.streamlit.component]``); its Python side is in
:mod:`ranklab_ui.widgets`. No Python runs from here.
"""
