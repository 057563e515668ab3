#!/usr/bin/env bash
# List latency at depth (make bench-list N=50000): makes sure the database holds at least N
# live posts (adding bench posts in one INSERT ... SELECT on the primary if needed: they take
# the normal path to the replica, Debezium and both indexes), shows the query plans, then
# times pages 0..deep through nginx with list_depth.py.
set -euo pipefail
. "$(dirname "$0")/../lib/stack.sh"
ensure_secrets
want="${1:-50000}"
db="$MARIADB_DATABASE"
have=$(db_sql primary "SELECT COUNT(*) FROM $db.posts WHERE deleted_at IS NULL")
if [ "$have" -lt "$want" ]; then
  add=$((want - have))
  log "adding $add bench posts (author benchseed, categories 1-30, one second apart, older than everything else)"
  db_sql primary "
    USE $db;
    INSERT IGNORE INTO $db.users (username, nickname, password_hash, created_at)
      VALUES ('benchseed', '벤치작성자', NULL, UTC_TIMESTAMP(6));
    SET @author = (SELECT id FROM $db.users WHERE username = 'benchseed');
    SET @oldest = (SELECT COALESCE(MIN(created_at), UTC_TIMESTAMP(6)) FROM $db.posts);
    INSERT INTO $db.posts (title, content, category_id, author_id, version, created_at, updated_at)
      SELECT CONCAT('벤치 글 ', seq), CONCAT('목록 깊이 측정용 본문 ', seq, '. 서울 부산 제주 한강.'), seq % 30 + 1, @author, 1,
             @oldest - INTERVAL seq SECOND, @oldest - INTERVAL seq SECOND
      FROM seq_1_to_$add;
    INSERT INTO $db.post_revisions (post_id, version, title, content, category_id, author_id, created_at)
      SELECT p.id, 1, p.title, p.content, p.category_id, p.author_id, p.created_at
      FROM $db.posts p LEFT JOIN $db.post_revisions r ON r.post_id = p.id
      WHERE p.author_id = @author AND r.post_id IS NULL;"
  replica_caught_up || die "the replica did not catch up with the bench posts"
fi
log "query plans (replica) for page 0 and page 100 of 20, overall and in category 7"
for where in "" "category_id = 7 AND"; do
  for offset in 0 2000; do
    echo "-- ${where:-all posts} offset $offset"
    # The statement of PostRepository.PAGE, with its parameters filled in.
    db_client replica -t -e "EXPLAIN SELECT STRAIGHT_JOIN p.id, p.title, u.nickname FROM (SELECT id, created_at FROM $db.posts WHERE $where deleted_at IS NULL
      ORDER BY created_at DESC, id DESC LIMIT 21 OFFSET $offset) page JOIN $db.posts p ON p.id = page.id
      JOIN $db.users u ON u.id = p.author_id ORDER BY page.created_at DESC, page.id DESC"
  done
done
python3 "$HANWIKI_ROOT/infra/bench/list_depth.py"
