"""hciplan's Streamlit entry point (``streamlit run app.py``, or ``hciplan app``): the app
itself is :mod:`hciplan_ui.app`."""

from hciplan_ui import import_once

import_once()  # before any page: the libraries pages share are imported by one thread (hciplan_ui.import_once)

from hciplan_ui.app import main  # noqa: E402  (after the imports above, on purpose)

main()
