"""What the benchmark runs: the sizes of the full and the quick run, and the targets it prints
(never asserts)."""

FULL = {"naive_mb": 1.0, "small_mb": 1.0, "large_mb": 10.0, "naive_vocab": 512,
        "vocabs": [1024, 4096], "repeats": 3, "encode_mb": {"benchmark": 10.0, "multilingual": 4.0},
        "stream_mb": 100, "scale_mb": [10, 40, 160, 1000], "scale_vocab": 4096, "scale_repeats": 2, "workers": 2,
        "one_process_max_mb": 160, "start_mb": 2.0, "start_vocab": 2048}
QUICK = {"naive_mb": 0.02, "small_mb": 0.1, "large_mb": 0.3, "naive_vocab": 300,
         "vocabs": [384, 512], "repeats": 1, "encode_mb": {"benchmark": 0.3, "multilingual": 0.3},
         "stream_mb": 5, "scale_mb": [0.2, 0.8], "scale_vocab": 512, "scale_repeats": 1, "workers": 2,
         "one_process_max_mb": 0.8, "start_mb": 0.2, "start_vocab": 512}
TARGETS = {"fast_vs_naive_speedup": 100, "fast_over_hf_time": 3, "encode_vs_tiktoken": 0.5,
           "encode_batch_vs_tiktoken": 1.0, "scale_time_vs_hf": 1.0, "scale_memory_vs_hf": 1.5,
           "scale_target_mb": 40, "gb_time_vs_hf": 0.7, "gb_peak_mb": 300, "start_time_vs_hf": 0.7}
LARGE_REPEATS_MB = 500  # from this size on, each training runs once (a run takes minutes)
