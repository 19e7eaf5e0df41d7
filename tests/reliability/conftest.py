"""The reliability tests (ctest -L reliability) import dynapage_client.py from this folder."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
