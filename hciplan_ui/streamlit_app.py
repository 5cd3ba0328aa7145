"""The script ``hciplan app`` hands to ``streamlit run`` (the same two lines as the
repository's ``app.py``, shipped inside the package)."""

from hciplan_ui.app import main

main()
