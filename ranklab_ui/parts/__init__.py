"""Parts of pages that several pages share, or that are a page's whole body: a lesson's frame
(``lessons``), predict-then-reveal (``predict``), the presenter view (``presenter``), the class
poll (``poll_view``), the Reader (QA) page's tables (``reader_view``). They draw with
:mod:`ranklab_ui.render` and :mod:`ranklab_ui.widgets`, on the session and the core."""
