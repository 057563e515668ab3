# Hanwiki: every entry point. `make help` lists them.
SHELL := /bin/bash
.DEFAULT_GOAL := help
INFRA := infra
# The build selects its own JDK (>= 25) and pinned Maven; see infra/lib/common.sh.
JAVA_HOME_SEL = $(shell bash -c '. infra/lib/common.sh && select_jdk')
MVN_BIN = $(shell bash -c '. infra/lib/common.sh && ensure_maven')
MVN = JAVA_HOME="$(JAVA_HOME_SEL)" MAVEN_OPTS="--sun-misc-unsafe-memory-access=allow" "$(MVN_BIN)" -B -f app/pom.xml
CHAOS_SHORT := cache-shard-crash,node-kill,connect-crash,binlog-purged,disk-full
APP_SOURCES := $(shell find app/src/main -type f 2>/dev/null) app/pom.xml

.PHONY: help up down status logs clean install build test unit-test it rebuild-node verify-index bench-freshness bench-write-cost profile-nodes test-write-cost bench-list bench-endpoints openapi k6-smoke seed bench-search common-terms bench-common-grams bench-cache autocomplete-rebuild bench-autocomplete drill-recovery check-compose compose-render fuzz load test-load-report browser-test screenshots bench-counter-bytes check-monitoring alerts dashboards chaos chaos-short check-dashboards bench-peer bench-search-nodes bench-stored-fields test-peer test-verify-index test-cdc-watchdog test-tools backup restore backup-status cdc-resnapshot it-overload bench-overload aot-cache test-aot

help: ## list the targets
	@grep -hE '^[a-z0-9-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-16s %s\n", $$1, $$2}'

install: ## install what the stack needs (apt packages, Maven, Kafka, Connect, Debezium)
	@bash $(INFRA)/install.sh

app/target/hanwiki.jar: $(APP_SOURCES)
	@bash $(INFRA)/install.sh
	$(MVN) -q package -DskipTests -DskipITs
	@touch $@

build: app/target/hanwiki.jar ## build the app jar (skips tests)

up: install build ## install, build and start the whole stack; prints where to look
	@HANWIKI_SKIP_INSTALL=1 bash $(INFRA)/up.sh

down: ## stop every process the stack started (by pid)
	@bash $(INFRA)/down.sh

status: ## one table: each component's pid, port, memory and health
	@bash $(INFRA)/status.sh

logs: ## follow all logs (var/log/*.log)
	@bash $(INFRA)/logs.sh

clean: down ## stop everything and wipe var/ (all local state)
	rm -rf var app/target

unit-test: ## unit tests only (no processes needed)
	@bash $(INFRA)/install.sh
	@$(MAKE) --no-print-directory test-tools
	$(MVN) test

test: ## compose and monitoring checks, unit tests, integration tests against the real stack (started if needed), the short chaos scenarios, the browser tests, then a bounded fuzz run (FUZZ_REQUESTS=5000)
	@bash $(INFRA)/install.sh
	@bash $(INFRA)/compose/check.sh
	@bash $(INFRA)/monitoring/check.sh
	@$(MAKE) --no-print-directory test-tools
	$(MVN) package
	@HANWIKI_SKIP_INSTALL=1 bash $(INFRA)/up.sh
	budgets=$$(python3 $(INFRA)/it_budgets.py) && $(MVN) test-compile failsafe:integration-test failsafe:verify $$budgets
	@$(MAKE) --no-print-directory chaos-short
	@bash $(INFRA)/web.sh test
	@bash $(INFRA)/fuzz.sh $(or $(FUZZ_REQUESTS),5000)

test-tools: test-load-report test-peer test-verify-index test-cdc-watchdog test-write-cost test-aot ## unit tests of the Python tools (load report and chaos verdicts, peer harness, verify-index, CDC watchdog, write-cost arithmetic, the container's AOT cache choice); no stack needed

it: ## integration tests only, against the running stack (started if needed)
	@HANWIKI_SKIP_INSTALL=1 bash $(INFRA)/up.sh
	budgets=$$(python3 $(INFRA)/it_budgets.py) && $(MVN) test-compile failsafe:integration-test failsafe:verify $$budgets

it-overload: ## OverloadIT alone (a node driven past its concurrency limit sheds fast; also part of make it), against the running stack
	@HANWIKI_SKIP_INSTALL=1 bash $(INFRA)/up.sh
	budgets=$$(python3 $(INFRA)/it_budgets.py) && $(MVN) test-compile failsafe:integration-test failsafe:verify $$budgets -Dit.test=OverloadIT

check-compose: ## validate compose/: drift from ports.env, docker-compose config, nginx -t, promtool (no Docker engine)
	@bash $(INFRA)/install.sh
	@bash $(INFRA)/compose/check.sh

compose-render: ## re-render compose/ from infra/ports.env, infra/versions.env and the templates
	@python3 $(INFRA)/compose/render.py

browser-test: up ## the pages in headless Chromium (sign up, write, search, autocomplete in Korean, conflict, history, like) against the stack
	@bash $(INFRA)/web.sh test

screenshots: up ## refresh docs/screenshots/ (one PNG per page) by running the browser journey
	@bash $(INFRA)/web.sh screenshots

check-monitoring: ## offline: promtool check config + rule unit tests, amtool check-config + routes, every alert tested, log rotation bounded
	@bash $(INFRA)/monitoring/check.sh

alerts: ## what the alert webhook receiver got (var/alerts/received.jsonl), one line per alert and status
	@python3 $(INFRA)/monitoring/received.py

check-dashboards: ## every dashboard offline (structure, links, PromQL syntax), then every panel query against the running stack (data or empty by design)
	@/usr/bin/python3 $(INFRA)/monitoring/dashboards.py --lint
	@/usr/bin/python3 $(INFRA)/monitoring/dashboards.py --check

dashboards: ## render every dashboard's panels to PNG from the live Prometheus into var/dashboards/ over RANGE (30m)
	@/usr/bin/python3 $(INFRA)/monitoring/dashboards.py --range $(or $(RANGE),30m)

backup: ## base backup of the primary (mariadb-backup) into var/backup/base; the binlog archive runs beside the stack
	@bash $(INFRA)/backup.sh full

cdc-resnapshot: ## the Debezium connector takes a new snapshot (its binlog position was purged; docs/runbooks/cdc.md)
	@bash $(INFRA)/backup.sh resnapshot

backup-status: ## newest base backup, binlog archiver, archived and primary GTIDs
	@bash $(INFRA)/backup.sh status

restore: ## restore the primary from the newest base + archived binlogs (UNTIL='YYYY-MM-DD HH:MM:SS' local time), re-seed the replica, rebuild CDC and indexes
	@bash $(INFRA)/backup.sh restore $(if $(UNTIL),--until '$(UNTIL)',)

test-aot: ## unit tests of the app container's entrypoint: which AOT cache its JVM gets (no Docker engine)
	@python3 infra/aot/test_entrypoint.py

aot-cache: ## train the app nodes' AOT cache for this build on the running stack (make up does it for a new build; FORCE=1 again; HANWIKI_AOT=0 runs without)
	@bash $(INFRA)/aot/train.sh

rebuild-node: ## wipe node N's index and let it rebuild from the change topic (N=1|2)
	@bash $(INFRA)/ctl.sh rebuild node$(or $(N),$(error set N=1 or N=2))

verify-index: ## compare the primary's live posts with each node's index (missing/stale/ghost versions, then content digests)
	@python3 infra/verify_index.py $(if $(WAIT),--wait $(WAIT),)

test-cdc-watchdog: ## unit tests of the CDC watchdog's decisions (restart with back-off, re-snapshot on a purged position); no stack needed
	@cd infra/cdc && python3 -m unittest test_connector_watchdog

test-verify-index: ## unit tests of verify-index's comparisons (versions and content digests); no stack needed
	@cd infra && python3 -m unittest test_verify_index

bench-freshness: ## write-to-searchable latency per node at RATE writes/s for SECONDS after WARMUP s (defaults 100, 60, 10)
	@python3 infra/bench/freshness.py --rate $(or $(RATE),100) --seconds $(or $(SECONDS),60) --warmup $(or $(WARMUP),10)

bench-write-cost: ## marginal CPU-ms per create per process: IDLE s idle (30), WARMUP s (20), RATE creates/s (100) for SECONDS (60) + drain; JFR=1 also profiles both nodes; appends var/bench/write-cost.jsonl
	@python3 infra/bench/write_cost.py --rate $(or $(RATE),100) --seconds $(or $(SECONDS),60) --idle $(or $(IDLE),30) --warmup $(or $(WARMUP),20) $(if $(JFR),--jfr)

profile-nodes: ## JFR on both nodes for SECONDS (60) while your load runs, then where each node's CPU went (threads, methods); recordings in var/bench/jfr/
	@python3 infra/bench/jfr.py $(or $(SECONDS),60)

test-write-cost: ## unit tests of bench-write-cost's arithmetic (marginal per process, idle subtraction, totals without the client); no stack needed
	@cd infra/bench && python3 -m unittest test_write_cost

drill-recovery: ## stop COMPONENT (connect|kafka|node1|node2) for DOWN s (60) under writes; time from its return to verify-index zeros
	@python3 infra/drills/recovery.py --component $(or $(COMPONENT),$(error set COMPONENT=connect|kafka|node1|node2)) --down $(or $(DOWN),60)

bench-list: ## list latency at page 0 vs deep pages (seeds N bench posts once, N=50000)
	@HANWIKI_SKIP_INSTALL=1 bash $(INFRA)/bench/list_depth.sh $${N:-50000}

bench-endpoints: ## p50/p99 of every API call through nginx, warm, one client (R=300 requests each)
	@python3 infra/bench/endpoints.py --requests $${R:-300}

fuzz: ## schemathesis against the served API through nginx, anonymous and signed in (REQUESTS=20000)
	@bash $(INFRA)/fuzz.sh $(or $(REQUESTS),20000)

openapi: ## refresh docs/openapi.json from what a running node serves
	@bash $(INFRA)/openapi.sh

seed: up ## generate DOCS wiki pages (default 2000; 1000000 for benchmarks) into the primary; WAIT=1 waits for both nodes
	@python3 infra/corpus/seed.py --docs $${DOCS:-2000} $${WAIT:+--wait-index}

bench-search: up ## in-process search benchmark over the 1M-page index (seeds it first if missing); writes docs/bench/search.md
	@bash infra/bench/search.sh

common-terms: ## regenerate the common-terms list (word pairs for phrases, ADR 0024) from node1's index; MIN_SHARE=0.05
	@bash infra/corpus/common_terms.sh

bench-common-grams: ## phrase p99 and indexing MB/s without / with the common-term pairs, in-process on DOCS pages (25000)
	@bash infra/bench/common_grams.sh

bench-cache: ## cache: latency per tier (L1, L2, origin), detail throughput through nginx, hit rates under a mixed load
	@python3 infra/bench/cache.py --posts $(or $(POSTS),300) --procs $(or $(PROCS),4) --seconds $(or $(SECONDS),20) --rate $(or $(RATE),10)

autocomplete-rebuild: ## rebuild every autocomplete key into a new version from node 1's index (NODE=2 for node 2), then switch atomically
	@bash infra/autocomplete/rebuild.sh

bench-autocomplete: up ## autocomplete p50/p99 through nginx (R requests) and Redis memory per million titles (TITLES generated); writes docs/bench/autocomplete.md
	@bash infra/bench/autocomplete.sh

load: ## k6 PROFILE=smoke|load|stress|soak|spike|breakpoint|overload [MIX=community|wiki] [RATE=] [DURATION=] [VUS=] [PAGES=queries|corpus] [CENSUS_EVERY=s]; report in docs/bench/load/
	@PROFILE=$(or $(PROFILE),smoke) MIX=$(or $(MIX),community) RATE=$(RATE) DURATION=$(DURATION) VUS=$(VUS) PAGES=$(PAGES) CENSUS_EVERY=$(CENSUS_EVERY) bash $(INFRA)/k6.sh

bench-overload: ## graceful overload: a breakpoint run, then RATE (default twice its last good rate) for DURATION (2m); report in docs/bench/overload/
	@RATE=$(RATE) DURATION=$(DURATION) LABEL=$(LABEL) bash $(INFRA)/bench/overload.sh

test-load-report: ## unit tests of the load report's judgements (breakpoint, drift, per-endpoint table) and of the chaos verdict; no stack needed
	@py="$$(bash $(INFRA)/k6.sh --venv-python)" && cd infra/bench && "$$py" -m unittest test_load_report && cd ../chaos && "$$py" -m unittest test_report

bench-peer: up ## OpenSearch 3.8.0 + nori side by side: same DOCS pages (100000), same queries, QPS at p95 < 100 ms, index time, freshness; docs/bench/peer.md
	@bash $(INFRA)/bench/peer.sh

bench-search-nodes: ## search CPU-ms per request on each node asked directly, alternating (ROUNDS 3, SECONDS 15, C 4, WARMUP 20): A/B of two builds or indexes
	@python3 $(INFRA)/bench/search_nodes.py --rounds $${ROUNDS:-3} --seconds $${SECONDS:-15} --concurrency $${C:-4} --warmup $${WARMUP:-20}

bench-stored-fields: ## the same pages with stored fields uncompressed vs LZ4 (ADR 0098), searched in-process, alternating (INDEX, RUNS 2)
	@bash $(INFRA)/bench/stored-fields.sh

test-peer: ## offline checks of the bench-peer harness (index mapping, queries, classes); no stack, no OpenSearch
	@cd infra/bench && python3 -m unittest test_peer

k6-smoke: ## the k6 smoke profile (= make load PROFILE=smoke): 5 users for 30 s, every check must pass
	@PROFILE=smoke MIX=$(or $(MIX),community) bash $(INFRA)/k6.sh

bench-counter-bytes: ## binlog and Kafka bytes per like and per view flush of one PAGE_KIB (1024) KiB page; see docs/bench/counters.md
	@python3 infra/bench/counter_bytes.py --page-kib $(or $(PAGE_KIB),1024)


chaos: ## chaos scenarios under load: no SCENARIO lists them; SCENARIO=name|a,b|all [RATE=100] [HOLD=60] [BASELINE=20] [AFTER=30] [BUDGET=180]; verdicts in docs/chaos/
	@py="$$(bash $(INFRA)/k6.sh --venv-python)" && "$$py" $(INFRA)/chaos/run.py $(SCENARIO) --rate $(or $(RATE),100) --hold $(or $(HOLD),60) --baseline $(or $(BASELINE),20) --after $(or $(AFTER),30) $(if $(BUDGET),--budget $(BUDGET),) $(if $(DOCS),--docs $(DOCS),)

chaos-short: ## the short chaos form make test runs: CHAOS_SHORT scenarios at 30 req/s, fault held 15 s, verdicts asserted (var/chaos/short/)
	@py="$$(bash $(INFRA)/k6.sh --venv-python)" && "$$py" $(INFRA)/chaos/run.py $(CHAOS_SHORT) --rate 30 --hold 15 --baseline 10 --after 10 --budget 120 --alert-wait 0 --node-warm 0 --docs var/chaos/short
