package dev.hanwiki.category;

import dev.hanwiki.platform.ApiResponse;
import dev.hanwiki.platform.ReplicaReads;
import java.util.List;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** {@code GET /categories}: the whole tree as a flat list in id order. */
@RestController
class CategoryController {

    private final ReplicaReads replica;

    CategoryController(ReplicaReads replica) {
        this.replica = replica;
    }

    @GetMapping("/api/v1.0/categories")
    ApiResponse<List<Category>> categories() {
        return ApiResponse.ok(replica.query(db -> db.sql("SELECT id, name, parent_id FROM categories ORDER BY id")
                .query((rs, row) -> new Category(rs.getLong("id"), rs.getString("name"), rs.getObject("parent_id", Long.class)))
                .list()));
    }
}
