package dev.hanwiki.auth;

/** Answer of the check-username and check-nickname calls. */
record Availability(String value, boolean available) {
}
