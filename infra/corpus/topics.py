"""Topic vocabulary of the 30 stable categories (ids 1-30, db/migration/V2__categories.sql).

Pages of a category draw part of their words (and more of their title words) from its list,
so that categories differ the way real wiki sections do: a query like "코드" finds mostly
프로그래밍 pages, and `category:요리` facets are meaningful. Words are real Korean and English
words; most are also in the wordfreq lists, where they keep their real frequency rank.
"""

TOPICS = {
    1: ("역사", "역사 고대 중세 근대 왕조 유적 문명 기록 사료 제국 혁명 연표 왕국 시대 유물 고고학 연대기 문헌 민족 전통 history empire ancient"),
    2: ("과학", "과학 실험 이론 연구 법칙 가설 관찰 측정 분석 자연 원리 발견 학자 데이터 모델 논문 증명 검증 science theory research experiment"),
    3: ("기술", "기술 개발 시스템 장치 제품 혁신 공학 설계 자동화 플랫폼 표준 특허 엔지니어 부품 제조 기능 성능 소프트웨어 technology engineering device"),
    4: ("문화", "문화 예술 전통 축제 공연 작품 예술가 박물관 전시 대중문화 유행 관객 무대 작가 미술 공예 의상 문화재 culture art festival"),
    5: ("생활", "생활 가정 살림 청소 육아 습관 이웃 집안일 가계부 쇼핑 절약 인테리어 가구 세탁 정리 수납 생활비 주말 life home family"),
    6: ("지리", "지리 지형 산맥 하천 평야 기후 대륙 해안 섬 지도 위도 경도 고원 분지 해협 반도 강수량 인구 geography climate map"),
    7: ("한국사", "조선 고려 신라 백제 고구려 세종대왕 임진왜란 훈민정음 경복궁 이순신 왕조 양반 과거 실학 대한제국 독립운동 광복 삼국 joseon goryeo silla"),
    8: ("세계사", "로마 그리스 나폴레옹 십자군 르네상스 산업혁명 프랑스혁명 제국주의 식민지 냉전 대항해시대 몽골 오스만 비잔티움 봉건제 종교개혁 rome napoleon renaissance"),
    9: ("인물", "인물 생애 업적 출생 사망 인생 지도자 발명가 철학자 정치인 학자 예술가 위인 평가 일화 자서전 후손 biography leader inventor"),
    10: ("전쟁", "전쟁 전투 군대 장군 병사 작전 함대 포위 동맹 휴전 침공 방어 승리 패배 무기 요새 해전 전선 war battle army"),
    11: ("물리학", "물리학 에너지 입자 양자 중력 상대성 전자기 운동량 파동 빛 원자 핵 열역학 역학 속도 가속도 질량 물리 physics quantum gravity energy"),
    12: ("생물학", "생물학 세포 유전자 진화 단백질 생명 생물 생태계 미생물 식물 동물 효소 염색체 면역 번식 종 dna biology cell gene evolution"),
    13: ("화학", "화학 원소 분자 반응 화합물 결합 용액 산 염기 촉매 주기율표 산화 이온 유기 결정 실험실 시약 chemistry molecule reaction"),
    14: ("천문학", "천문학 우주 은하 행성 별 태양 달 망원경 블랙홀 성운 혜성 궤도 위성 관측 천체 빅뱅 화성 목성 astronomy galaxy planet star"),
    15: ("프로그래밍", "프로그래밍 코드 함수 변수 컴파일러 알고리즘 자바 파이썬 개발자 라이브러리 디버깅 객체 클래스 배열 문법 오픈소스 버그 테스트 python java code function"),
    16: ("인공지능", "인공지능 머신러닝 딥러닝 신경망 학습 모델 데이터 추론 알고리즘 자연어 로봇 챗봇 인식 예측 강화학습 자율주행 ai neural learning model"),
    17: ("하드웨어", "하드웨어 반도체 프로세서 메모리 그래픽카드 메인보드 저장장치 칩 회로 전력 냉각 노트북 컴퓨터 모니터 키보드 부품 cpu gpu chip memory"),
    18: ("인터넷", "인터넷 웹 네트워크 서버 브라우저 검색 사이트 온라인 이메일 보안 해킹 클라우드 도메인 접속 커뮤니티 플랫폼 스트리밍 web network server online"),
    19: ("음악", "음악 노래 가수 앨범 작곡 가사 공연 밴드 악기 피아노 기타 리듬 멜로디 콘서트 음반 아이돌 가요 music song album band"),
    20: ("영화", "영화 감독 배우 주연 개봉 흥행 시나리오 장면 관객 극장 촬영 영화제 작품 연기 예고편 명작 스크린 movie film director actor"),
    21: ("문학", "문학 소설 시인 작가 작품 문장 이야기 고전 수필 장편 단편 주인공 출판 독자 문체 번역 소설가 literature novel poem author"),
    22: ("게임", "게임 플레이어 캐릭터 레벨 아이템 퀘스트 온라인 전략 공략 서버 그래픽 모드 콘솔 스테이지 보스 길드 랭킹 game player level item"),
    23: ("요리", "요리 음식 김치 레시피 재료 조리 반찬 국물 양념 간장 된장 고추장 밥 찌개 볶음 비빔밥 맛집 cooking recipe food kimchi"),
    24: ("건강", "건강 운동 질병 치료 병원 의사 증상 예방 영양 수면 스트레스 다이어트 면역 약 검진 혈압 통증 health exercise disease"),
    25: ("스포츠", "스포츠 축구 야구 농구 선수 경기 리그 우승 감독 올림픽 월드컵 골 득점 시즌 구단 대회 기록 sports football baseball league"),
    26: ("여행", "여행 관광 호텔 항공 일정 여행지 명소 숙소 배낭 풍경 기념품 가이드 휴가 공항 비자 코스 추천 travel trip hotel tour"),
    27: ("서울", "서울 한강 경복궁 남산 명동 강남 종로 북촌 지하철 광화문 인사동 홍대 잠실 청계천 서울역 시청 seoul gangnam hangang"),
    28: ("부산", "부산 해운대 광안리 자갈치 서면 부산항 영도 감천 태종대 남포동 돼지국밥 밀면 부산역 국제시장 해수욕장 busan haeundae port"),
    29: ("제주", "제주 한라산 제주도 오름 올레길 감귤 해녀 성산 일출봉 서귀포 우도 돌하르방 협재 용암 동굴 jeju hallasan island"),
    30: ("세계 지리", "세계 대륙 국가 수도 사막 열대 빙하 대양 적도 아마존 사하라 히말라야 알프스 나일강 태평양 대서양 world continent desert ocean"),
}


def topic_words(category_id):
    return TOPICS[category_id][1].split()
