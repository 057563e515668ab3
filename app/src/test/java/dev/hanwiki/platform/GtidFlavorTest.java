package dev.hanwiki.platform;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class GtidFlavorTest {

    @ParameterizedTest
    @ValueSource(strings = {"0-1-42", "0-1-42,1-2-7", "4294967295-4294967295-18446744073709551615"})
    void mariaDbPositionsAreRecognised(String position) {
        assertThat(GtidFlavor.MARIADB.isPosition(position)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"3E11FA47-71CA-11E1-9E33-C80AA9429562:1-77",
            "3E11FA47-71CA-11E1-9E33-C80AA9429562:1-5:11-18,2174B383-5441-11E8-B90A-C80AA9429562:1-3"})
    void mySqlSetsAreRecognised(String position) {
        assertThat(GtidFlavor.MYSQL.isPosition(position)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "0-1", "0-1-x", "0-1-1;SELECT 1", "0-1-1 ", "' OR 1=1 --", "0-1-1,", "-1-1-1"})
    void anythingElseIsNotAPosition(String value) {
        assertThat(GtidFlavor.MARIADB.isPosition(value)).isFalse();
        assertThat(GtidFlavor.MYSQL.isPosition(value)).isFalse();
    }
}
