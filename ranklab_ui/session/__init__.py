"""The session: every key of ``st.session_state`` the app keeps. ``state`` holds the current
example and keeps the URL in step, ``history`` the undo and redo stacks (it listens to
``state``'s changes), ``options`` each page's settings and their place in the link,
``language`` the session's language and its place in the link. These use
``ranklab_ui.core`` only; drawing a widget is for the modules above them."""
