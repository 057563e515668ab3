package dev.hanwiki.cdc;

import org.apache.kafka.clients.consumer.ConsumerRecord;

/** Takes a change event this node cannot read, with the reason; see {@link DeadLetters}. */
@FunctionalInterface
interface DeadLetterSink {

    void send(ConsumerRecord<String, String> poison, String reason);
}
