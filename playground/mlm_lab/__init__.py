"""The MLM lab: fine-tune a masked LM on your own corpus and watch its predictions for the corpus's words change.

The contract: `run_mlm_lab(LabRequest, runtime, progress) -> (LabResult, fine-tuned model)` (lab.py), run by the
server's single-slot runner in its worker process (runner.py, worker.py); the page and the API follow a job
through one follower (follow.py).
"""

from playground.mlm_lab.lab import LabProgress, LabRequest, check_base, run_mlm_lab
from playground.mlm_lab.training import LabResult, LabSettings

__all__ = ["LabProgress", "LabRequest", "LabResult", "LabSettings", "check_base", "run_mlm_lab"]
