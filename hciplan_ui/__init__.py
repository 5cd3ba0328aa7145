"""hciplan's Streamlit app: pages that show what :mod:`planner` computes (the UI computes no physics)."""
