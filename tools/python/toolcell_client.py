"""toolcell_client, the client's first name (frameworks and the README
import it so): the very module toolcell.client, not a copy, so either name
gives the same classes, functions and settings."""

import sys

from toolcell import client

sys.modules[__name__] = client
