-- The 30 seeded categories: six top-level topics with four children each. Ids 1-30 are
-- part of the contract (stable across installs); the corpus generator and clients may
-- rely on them. Add new categories with ids above 1000.
INSERT INTO categories (id, name, parent_id) VALUES
    (1, '역사', NULL), (2, '과학', NULL), (3, '기술', NULL),
    (4, '문화', NULL), (5, '생활', NULL), (6, '지리', NULL);
INSERT INTO categories (id, name, parent_id) VALUES
    (7, '한국사', 1), (8, '세계사', 1), (9, '인물', 1), (10, '전쟁', 1),
    (11, '물리학', 2), (12, '생물학', 2), (13, '화학', 2), (14, '천문학', 2),
    (15, '프로그래밍', 3), (16, '인공지능', 3), (17, '하드웨어', 3), (18, '인터넷', 3),
    (19, '음악', 4), (20, '영화', 4), (21, '문학', 4), (22, '게임', 4),
    (23, '요리', 5), (24, '건강', 5), (25, '스포츠', 5), (26, '여행', 5),
    (27, '서울', 6), (28, '부산', 6), (29, '제주', 6), (30, '세계 지리', 6);
