package dev.hanwiki.post;

import dev.hanwiki.platform.ApiResponse;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping("/api/v1.0/posts/{id}/like")
class LikeController {

    private final LikeService likes;

    LikeController(LikeService likes) {
        this.likes = likes;
    }

    @PostMapping
    ApiResponse<LikeStatus> like(@PathVariable long id) {
        return ApiResponse.ok(likes.like(id));
    }

    @DeleteMapping
    ApiResponse<LikeStatus> unlike(@PathVariable long id) {
        return ApiResponse.ok(likes.unlike(id));
    }
}
