"""The benchmark: bpe_ref's trainer and encoder against the naive loop, Hugging Face and tiktoken.

`python -m bpe_ref.bench [options]` (bpe_ref/bench/cli.py lists them). One module per thing
measured: training.py, encoding.py, startup.py, stream.py and scale.py; each job runs in a
fresh process (measure.py). The corpus is corpora.py, the sizes and targets plan.py; the
training-at-scale chart is drawn by bpe_ref.course.plots, with the other plots.
"""

from .cli import main, summarise
from .corpora import corpus, describe_corpus, write_corpus
from .encoding import ENCODING_CORPORA, encoding_corpus, encoding_ratios, multilingual_corpus
from .hf import hf_train
from .plan import FULL, QUICK, TARGETS
from .scale import draw_chart, print_scale, summarise_scale
from .startup import unicode16_text

__all__ = ["main", "summarise", "corpus", "describe_corpus", "write_corpus", "ENCODING_CORPORA", "encoding_corpus",
           "encoding_ratios", "multilingual_corpus", "hf_train", "FULL", "QUICK", "TARGETS", "draw_chart",
           "print_scale", "summarise_scale", "unicode16_text"]
