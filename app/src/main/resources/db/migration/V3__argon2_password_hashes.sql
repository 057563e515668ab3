-- Passwords are hashed with Argon2id behind a delegating encoder (ADR 0010): the stored value
-- names its algorithm and parameters, e.g. "{argon2@SpringSecurity_v5_8}$argon2id$v=19$m=16384,t=2,p=1$...",
-- about 125 characters. Room for a future algorithm's longer output as well.
ALTER TABLE users MODIFY password_hash VARCHAR(255) NULL;
