package dev.hanwiki.search;

/**
 * Plain-text snippets: the start of the content, whitespace collapsed, cut on a code point
 * boundary and HTML-escaped, because clients render snippets as markup (highlighting will add
 * tags later) and post content is untrusted.
 */
final class Snippets {

    static final int MAX_CODE_POINTS = 150;

    private Snippets() {
    }

    static String of(String content) {
        if (content == null || content.isBlank()) {
            return "";
        }
        String text = content.strip().replaceAll("\\s+", " ");
        boolean cut = text.codePointCount(0, text.length()) > MAX_CODE_POINTS;
        if (cut) {
            text = text.substring(0, text.offsetByCodePoints(0, MAX_CODE_POINTS)) + "…";
        }
        return escapeHtml(text);
    }

    static String escapeHtml(String text) {
        StringBuilder out = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '&' -> out.append("&amp;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }
}
