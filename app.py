"""hciplan's Streamlit entry point (``streamlit run app.py``, or ``hciplan app``): the app
itself is :mod:`hciplan_ui.app`."""

from hciplan_ui.app import main

main()
