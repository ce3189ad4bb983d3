# Fuzzers and sanitizer builds (included by the Makefile; docs/robustness.md).
#   build/fuzz/fuzz_NAME   libFuzzer targets (Debian's clang), with ASan and UBSan
#   build/asan/...         the host unit tests, kovctl and the viewer with ASan and UBSan (gcc)
# make test builds both; tests/run replays each fuzzer's corpus (tests/fuzz/corpus/NAME), fuzzes
# each for a few seconds and runs the sanitized programs. make fuzz fuzzes each for
# FUZZ_SECONDS, keeping what it finds in build/fuzz/corpus/NAME, then sysfuzz with 10^6 calls.

FUZZ_CC ?= clang
FUZZ_SECONDS ?= 300
SANITIZE := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
# common/lib/string.h reaches the C library's header with #include_next on purpose.
FUZZ_CFLAGS := -std=c11 -g -O1 $(WARN) -D_POSIX_C_SOURCE=200809L -Itools -I. -Igui \
               -Wno-include-next-absolute-path $(SANITIZE) -fsanitize=fuzzer

FUZZERS := proto recording pmuconf fdt elf http
FUZZ_BINS := $(patsubst %,$(B)/fuzz/fuzz_%,$(FUZZERS))
FUZZ_C_proto := $(HOST_CLIENT_C)
FUZZ_C_recording := $(HOST_CLIENT_C)
FUZZ_C_pmuconf := $(HOST_CLIENT_C)
FUZZ_C_fdt := kernel/lib/fdt.c
FUZZ_C_elf := common/syms/elf_syms.c common/syms/ksyms.c common/lib/format.c
FUZZ_C_http := dci/http.c

.PHONY: fuzzers sanitized fuzz
fuzzers: $(FUZZ_BINS)

.SECONDEXPANSION:
$(B)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $$(FUZZ_C_$$*) $(wildcard proto/*.h dci/*.h gui/client/*.h common/*/*.h kernel/lib/*.h)
	@mkdir -p $(dir $@)
	@echo "  FUZZ $@"
	@$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $< $(FUZZ_C_$*) $(if $(findstring client,$(FUZZ_C_$*)),$(HOST_CLIENT_LIBS))

# Each fuzzer for FUZZ_SECONDS from its committed corpus; new inputs go to build/fuzz/corpus.
# Then the system-call fuzzer's full form on the target: 10^6 calls, a new seed each time.
fuzz: setup
	@$(MAKE) --no-print-directory all fuzzers
	@for f in $(FUZZERS); do \
		mkdir -p $(B)/fuzz/corpus/$$f $(B)/fuzz/artifacts; \
		echo "fuzz_$$f: $(FUZZ_SECONDS) s"; \
		$(B)/fuzz/fuzz_$$f -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
			-artifact_prefix=$(B)/fuzz/artifacts/$$f- $(B)/fuzz/corpus/$$f tests/fuzz/corpus/$$f \
			2>&1 | grep -E '^(#[0-9]+.*DONE|stat::number_of_executed_units|stat::peak_rss|==[0-9]+==ERROR|SUMMARY)' \
			|| true; \
		[ -z "$$(ls $(B)/fuzz/artifacts/$$f-* 2>/dev/null)" ] || { echo "fuzz_$$f found crashes: $(B)/fuzz/artifacts/$$f-*"; exit 1; }; \
	done
	@seed=$$(date +%s); echo "sysfuzz: 1000000 calls, seed $$seed"; \
		SYSFUZZ_CALLS=1000000 SYSFUZZ_SEED=$$seed bash tests/qemu/sysfuzz.sh

# --- the same code with AddressSanitizer and UndefinedBehaviorSanitizer -----------------------
# The shared sources are compiled once into an archive that every sanitized program links.
ASAN_LIB_C := $(sort $(PORTABLE_C) $(wildcard gui/client/*.c) tools/mksyms_lib.c)
ASAN_LIB := $(B)/asan/libkov.a
ASAN_UNIT := $(patsubst tests/unit/%.c,$(B)/asan/tests/%,$(wildcard tests/unit/test_*.c))
ASAN_CFLAGS = $(HFLAGS) -O1 $(SANITIZE) -Igui
sanitized: $(ASAN_UNIT) $(B)/asan/kovctl $(if $(wildcard gui/viewer/*.c),$(B)/asan/kov-viewer)

$(B)/asan/obj/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  HOSTCC $< (ASan, UBSan)"
	@$(HOSTCC) $(ASAN_CFLAGS) -MMD -MP -c -o $@ $<

$(ASAN_LIB): $(patsubst %.c,$(B)/asan/obj/%.o,$(ASAN_LIB_C))
	@rm -f $@
	@ar rcs $@ $^

$(B)/asan/tests/%: tests/unit/%.c $(ASAN_LIB)
	@mkdir -p $(dir $@)
	@echo "  HOSTCC $@ (ASan, UBSan)"
	@mkdir -p $(B)/asan/obj/tests && $(HOSTCC) $(ASAN_CFLAGS) -MMD -MP -MF $(B)/asan/obj/tests/$*.d -o $@ $< $(ASAN_LIB) -lcmocka -lpthread $(HOST_CLIENT_LIBS)

$(B)/asan/kovctl: $(wildcard gui/kovctl/*.c gui/kovctl/*.h) $(ASAN_LIB)
	@mkdir -p $(dir $@)
	@echo "  HOSTCC $@ (ASan, UBSan)"
	@$(HOSTCC) $(ASAN_CFLAGS) -o $@ $(wildcard gui/kovctl/*.c) $(ASAN_LIB) $(HOST_CLIENT_LIBS)

$(B)/asan/kov-viewer: $(VIEWER_C) $(wildcard gui/viewer/*.h) $(ASAN_LIB)
	@mkdir -p $(dir $@)
	@echo "  HOSTCC $@ (ASan, UBSan)"
	@$(HOSTCC) $(ASAN_CFLAGS) -D_DEFAULT_SOURCE -D_GNU_SOURCE $$(pkg-config --cflags $(VIEWER_PKGS)) \
		-o $@ $(VIEWER_C) $(ASAN_LIB) $(HOST_CLIENT_LIBS) $$(pkg-config --libs $(VIEWER_PKGS)) -lm

-include $(shell find $(B)/asan -name '*.d' 2>/dev/null)
