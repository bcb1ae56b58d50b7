"""The unit tier runs torch on one thread.

Its models are tiny (hidden 32, 2 layers): a second thread only adds synchronisation, and on a busy machine (two
cores shared with a browser, an app server or another job) torch's spinning threads slowed it badly:
tests/unit/sampling/test_sampling.py took 149 s with torch's default 2 threads and 29 s with 1, back to back under the
same load. Real models (integration, e2e) keep torch's default.
"""

import torch

torch.set_num_threads(1)
