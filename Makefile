# The one entry point. `make help` lists the targets and the variables.
# A "##" comment after a target is its line in `make help`; a "#:" comment
# line above a variable is the variable's.
#: MODE=y         build, boot, run, kselftest: y or n (CONFIG_HIGHATOMIC_RESERVE), y-debug or n-debug (debug profile), y+VARIANT (qemu/matrix/; y+recycle: the reserve policy on), y+VARIANT-debug, or base (no series)
MODE ?= y
#: MODES="y n y+recycle"  build-all, test, test-full, stress-tests, bench-smoke, compare-selftests
MODES ?= y n y+recycle
#: SOAK_MODES="y+recycle n"  build-debug, soak, soak-short, as MODE-debug
SOAK_MODES ?= y+recycle n
#: N=20           stress-tests: runs of the series' tests per mode in one guest
N ?= 20
#: FRESH=15       stress-tests: fresh guests per mode for the tests that need one (0: none)
FRESH ?= 15
SHELL := /bin/bash

.PHONY: help deps tree build build-all boot run kselftest test test-full stress-tests \
	build-debug soak soak-short bad-args build-matrix build-matrix-distro \
	export check check-kconfig lint results-check results-sync check-failures check-bisect own-tree-check compare-objects compare-selftests clean \
	bench bench-full bench-smoke bench-r2 bench-policy-cost bench-regimes bench-irqsoff bench-hoard build-baselines

help: ## this list
	@grep -hE '^[a-z0-9-]+:.*## ' $(MAKEFILE_LIST) | \
		awk -F':.*## ' '{ name[NR] = $$1; text[NR] = $$2; if (length($$1) > w) w = length($$1) } \
			END { for (i = 1; i <= NR; i++) printf "  make %-" w "s  %s\n", name[i], text[i] }'
	@echo
	@echo "Variables (make TARGET VAR=value; the default after '='):"
	@sed -n 's/^#: /  /p' $(MAKEFILE_LIST)

deps: ## install the packages (apt-get; root) and the pinned linux-source
	scripts/deps

tree: deps ## import the base into build/linux and fetch the series from the bundle
	scripts/tree setup

build: tree ## build kernel, modules and mm selftests of MODE in build/obj-MODE
	scripts/build $(MODE) all

build-all: tree ## build the MODES (both modes, and =y with the reserve policy)
	@for m in $(MODES); do scripts/build $$m all || exit 1; done

boot: ## interactive shell in a guest running MODE (Ctrl-A X quits)
	qemu/run --mode $(MODE)

#: CMD=           run: the command to run in the guest (no default; required)
run: ## run CMD="..." in a guest running MODE; exits with its status
	@[ -n "$(CMD)" ] || { echo 'usage: make run MODE=y CMD="command"' >&2; exit 2; }
	qemu/run --mode $(MODE) -- bash -c "$$CMD"

kselftest: ## make kselftest TARGETS=mm (quick selection) in a MODE guest
	selftests/run --modes $(MODE)

test: build-all ## the main job: build, boot and test the MODES, summary per mode
	@t0=$$(date +%s); selftests/run --modes "$(MODES)"; rc=$$?; \
		echo "tests took $$(( $$(date +%s) - t0 )) s"; exit $$rc

test-full: build-all ## every run_vmtests.sh category in both modes (long)
	selftests/run --modes "$(MODES)" --all --timeout 5400

stress-tests: build-all ## the series' tests N times (N=20) per mode in one guest, FRESH=15 fresh guests: pass/fail/retries
	@t0=$$(date +%s); selftests/stress --runs "$(N)" --fresh "$(FRESH)" --modes "$(MODES)"; rc=$$?; \
		echo "stress tests took $$(( $$(date +%s) - t0 )) s"; exit $$rc

DEBUG_MODES = $(addsuffix -debug,$(SOAK_MODES))
#: DURATION=300   soak: seconds of load per mode
DURATION ?= 300
build-debug: tree ## build the debug profile (qemu/debug.config) of the SOAK_MODES in build/obj-MODE-debug
	@for m in $(DEBUG_MODES); do scripts/build $$m all || exit 1; done

soak: build-debug ## soak of DURATION=300 s per mode under the debug profile (=y with the reserve policy on), then the series' kselftests there
	@t0=$$(date +%s); selftests/soak --modes "$(DEBUG_MODES)" --duration "$(DURATION)"; rc=$$?; \
		echo "soak took $$(( $$(date +%s) - t0 )) s"; exit $$rc

soak-short: build-debug ## the soak's short form under the debug profile: 90 s per mode, no kselftests (CI runs it on make test's kernels)
	@t0=$$(date +%s); selftests/soak --modes "$(DEBUG_MODES)" --duration 90 --no-kselftests; rc=$$?; \
		echo "soak took $$(( $$(date +%s) - t0 )) s"; exit $$rc

build-matrix: tree ## both modes under the guest config and each qemu/matrix/ variant: build, W=1, boot, series' tests
	scripts/build-matrix

build-matrix-distro: tree ## the series' files with W=1 under Debian's amd64 config, both modes (not CI)
	scripts/build-matrix --distro

bad-args: ## every top-level command given wrong arguments fails in one line and changes nothing
	selftests/bad-args

#: BENCH_MODES="y n"  bench, bench-full, bench-regimes: the modes measured (also y@NAME: =y with bench/baselines/NAME.patch, y@recycle the policy on; y+recycle: the build matrix's =y with the policy on)
BENCH_MODES ?= y n
#: BENCH_WORKLOADS=r1,r3,r4,burst,thp,alloc  bench: the workloads (R2 has make bench-r2: at the quick size 3 runs a mode reached it in 2 of 6 runs on v5, for 659 of the 2038 s)
BENCH_WORKLOADS ?= r1,r3,r4,burst,thp,alloc
bench: build-all ## A/B benchmark, quick profile: regimes R1, R3, R4 and the older workloads, 3 runs of BENCH_MODES (=y and =n: 24 min on v5; R2 is make bench-r2's): build/bench/<time>/
	bench/run --profile quick --workloads "$(BENCH_WORKLOADS)" --modes "$(BENCH_MODES)"

bench-full: build-all ## A/B benchmark, full profile (long; see bench/RESULTS.md)
	bench/run --profile full --modes "$(BENCH_MODES)"

#: RUNS=3         bench-irqsoff: guests (runs) measured
RUNS ?= 3
bench-irqsoff: ## longest zone->lock hold and irqs-off section of the test module's snap over fragmented free lists (y-debug guests, RUNS=3)
	scripts/build y-debug all
	bench/irqsoff --mode y-debug --runs "$(RUNS)"

bench-smoke: build-all ## the benchmark's pipeline, one short run of R1 and workloads 1-4 (CI); fails if R1 was not reached
	bench/run --profile smoke --workloads r1,burst,thp,alloc --modes "$(MODES)"

#: HOARD_MODES="y n y@costly y@fastpath y@noreserve y@pcpnogrow y@prefill y@recycle"  bench-hoard: the modes (y@NAME: =y with bench/baselines/NAME.patch)
HOARD_MODES ?= y n $(addprefix y@,$(basename $(notdir $(wildcard bench/baselines/*.patch))))
#: HOARD_OUT=build/bench/hoard  bench-hoard: the sweep's directory; a second make bench-hoard goes on with it
HOARD_OUT ?= build/bench/hoard
#: HOARD_RUNS=  bench-hoard: rounds instead of the profile's 12; a finished sweep given more goes on with a round more of every mode (where guests were lost)
HOARD_RUNS ?=
#: HOARD_MINUTES=110  bench-hoard: a part's length; it stops after this many minutes (and the guest running then)
HOARD_MINUTES ?= 110
build-baselines: tree ## build the benchmark's baselines (=y with each bench/baselines/NAME.patch) in build/obj-y@NAME
	@for b in $(wildcard bench/baselines/*.patch); do b=$${b##*/}; scripts/build "y@$${b%.patch}" all || exit 1; done

bench-hoard: build-all build-baselines ## R1 and R3 sweep, 12 rounds over HOARD_MODES (about 5.6 h in all, and 35 min to build its eight kernels on a fresh machine): stops after HOARD_MINUTES; run it again to go on
	@t0=$$(date +%s); rc=0; \
	if [ -e "$(HOARD_OUT)/samples.csv" ]; then resume=--resume; else resume=; fi; \
	bench/run --profile hoard --workloads r1,r3 --modes "$(HOARD_MODES)" --out "$(HOARD_OUT)" \
		--max-minutes "$(HOARD_MINUTES)" $(if $(HOARD_RUNS),--runs "$(HOARD_RUNS)") $$resume || rc=$$?; \
	echo "bench-hoard took $$(( $$(date +%s) - t0 )) s"; \
	if [ $$rc = 3 ]; then echo "bench-hoard: not done yet: run make bench-hoard again to go on"; exit 0; fi; \
	exit $$rc

#: COST_OUT=build/bench/policy-cost  bench-policy-cost: its directory; a second make bench-policy-cost goes on with it
COST_OUT ?= build/bench/policy-cost
bench-policy-cost: tree ## R4 and the allocation cost (bench/params.conf [policy-cost]), 12 rounds of =y, the policy (y@recycle) and the three 2026 proposals, for the goal table's "no worse than =y" rows (not yet run in this form: its guests took about 49 s and 21 s in earlier sweeps, so about 70 min): stops after HOARD_MINUTES; run it again to go on
	@for m in y y@recycle y@costly y@fastpath y@pcpnogrow; do scripts/build $$m all || exit 1; done
	@t0=$$(date +%s); rc=0; \
	if [ -e "$(COST_OUT)/samples.csv" ]; then resume=--resume; else resume=; fi; \
	bench/run --profile policy-cost --workloads r4,alloc --modes "y y@recycle y@costly y@fastpath y@pcpnogrow" \
		--out "$(COST_OUT)" --max-minutes "$(HOARD_MINUTES)" $$resume || rc=$$?; \
	echo "bench-policy-cost took $$(( $$(date +%s) - t0 )) s"; \
	if [ $$rc = 3 ]; then echo "bench-policy-cost: not done yet: run make bench-policy-cost again to go on"; exit 0; fi; \
	exit $$rc

bench-r2: tree ## regime R2 alone (bench/params.conf [r2]): 12 rounds of =y, =n and the policy (y@recycle), 65 min here (on a fresh machine first about 27 min to build the three kernels): build/bench/r2-<time>/
	@for m in y n y@recycle; do scripts/build $$m all || exit 1; done
	bench/run --profile r2 --workloads r2 --modes "y n y@recycle" \
		--out build/bench/r2-$$(date +%Y%m%d-%H%M%S)

bench-regimes: build-all ## regimes R2-R4 (both R2 cadences, both R3 THP paths) for BENCH_MODES, 3 runs (about an hour)
	bench/run --profile regimes --workloads r2,r3,r4 --modes "$(BENCH_MODES)" \
		--out build/bench/regimes-$$(date +%Y%m%d-%H%M%S)

export: ## write the tree's series into kernel-branch.bundle and patches/
	scripts/export

results-check: ## every figure bench/RESULTS.md quotes in generated markers, and every one the series quotes (bench/quoted-figures), is what the committed samples give; R2's reached flag from its committed series (bench/check-r2-flag)
	bench/results-sync --check
	bench/check-r2-flag

results-sync: ## rewrite the generated figures of bench/RESULTS.md from the committed samples
	bench/results-sync

check: lint ## bundle and patches/ agree; checkpatch --strict of every patch
	scripts/check-series --checkpatch

check-kconfig: ## allnoconfig, tinyconfig and defconfig keep CONFIG_HIGHATOMIC_RESERVE=y; the toggle works
	scripts/check-kconfig

lint: ## shellcheck and python syntax of the project's scripts
	shellcheck -x -P SCRIPTDIR scripts/tree scripts/build scripts/export scripts/check-series \
		scripts/deps scripts/lib.sh scripts/check-failures scripts/check-bisect scripts/compare-objects qemu/run qemu/guest-init selftests/run selftests/stress selftests/kill-check .ci/run \
		selftests/soak selftests/bad-args scripts/build-matrix \
		bench/guest bench/irqsoff scripts/own-tree-check scripts/check-kconfig
	python3 -m py_compile scripts/check-config.py scripts/objcmp.py selftests/ktap_summary.py \
		selftests/compare.py selftests/stress_table.py bench/run bench/report bench/zonelist.py \
		bench/stats.py bench/test_stats.py bench/results-sync bench/check-r2-flag \
		selftests/soak-guest

check-bisect: ## every commit of the series builds and boots in both modes (long)
	scripts/check-bisect

compare-objects: ## =y objects of the series vs the base, function by function
	scripts/compare-objects

compare-selftests: tree ## quick mm selftests on the base (no series), =y and =n, compared test by test (long)
	scripts/build base all
	@for m in $(MODES); do scripts/build $$m all || exit 1; done
	-selftests/run --modes "base $(MODES)"
	python3 selftests/compare.py build/results/base $(addprefix build/results/,$(MODES))

own-tree-check: deps ## follow the README's route from one's own kernel tree literally, in build/own-tree (CI)
	scripts/own-tree-check

check-failures: ## show that broken cases fail clearly: bad bundle, panic, hang, failing test
	scripts/check-failures

# Every build output: each mode's build directory (y, n, base, MODE-debug,
# the matrix's MODE+VARIANT, distro-MODE), the results of selftests/run,
# qemu/run, stress, soak, build-matrix, bench/run (and its programs),
# bench/irqsoff and scripts/own-tree-check, the logs and what an interrupted
# command left of its scratch files. Not the kernel tree, the base's
# worktree or the compiler cache: they take long to make again.
CLEAN = $(wildcard build/obj-* build/results build/runs build/stress build/soak build/matrix \
	build/bench build/bench-bin build/irqsoff build/own-tree build/*.log build/ci-failures.txt \
	build/bundle-verify.err build/check-failures.* build/check-index.* build/check-b4.* build/export.*)
clean: ## remove every build output; keeps build/linux (the tree), build/base-tree and build/ccache
	rm -rf $(CLEAN)
