#!/usr/bin/env bash
# Build the official Java MCP SDK (modelcontextprotocol/java-sdk v2.0.1: mcp-core + mcp-json-jackson2) and the
# javasdk group's server and client (JavaSdkServer.java, JavaSdkClient.java) offline with plain javac: Maven Central
# is not reachable, so neither Maven nor Gradle runs. Every source comes from a GitHub repository pinned by commit in
# SOURCES; the servlet container (embedded Tomcat 10.1), slf4j and jsr305 are Debian 12 packages.
#
#   bash samples/gen/ecosystem/javasdk/build.sh
#
# Needs: openjdk-17-jdk-headless, git, and the Debian packages libtomcat10-java (jakarta.servlet 6.0 + embedded
# Tomcat 10.1), libslf4j-java (slf4j-api + slf4j-simple 1.7.32) and libjsr305-java (javax.annotation, which reactor-core
# compiles against). Sources: src/NAME is laid out by `git archive COMMIT PATHS` from a git directory of the repository:
# $JAVASDK_GITDIRS/OWNER+NAME/repo when that exists (a directory of bare mirrors), else a blobless bare clone from
# GitHub made under src/.git/. src/ and build/ are git-ignored. A compile step is skipped when its classes are there
# (rm -rf build to rebuild).
#
# What is left out (optional parts of dependencies, all loaded only when present on the classpath at run time):
#   - reactor-core: reactor/core/scheduler/ReactorBlockHoundIntegration.java (BlockHound) and the META-INF/services
#     files; the src/main/java21 overlay (virtual threads; this is Java 17); src/main/java11's CallSiteSupplierFactory
#     replaces src/main/java's (as in the multi-release jar on Java 11+). Micrometer (micrometer-core/-commons/
#     -observation 1.14.0) and context-propagation 1.1.2 are only on javac's -sourcepath with -implicit:none: reactor
#     compiles against them, none of their classes is built or on the run-time classpath (as when an application does
#     not add these optional dependencies).
#   - json-schema-validator: its Joni and GraalJS regular-expression classes (regex/Joni*, regex/GraalJS*,
#     regex/ECMAScriptRegularExpressionFactory.java: optional joni / GraalJS dependencies; the default JDK regex
#     factory stays) and module-info.java; SchemaRegistryConfig.java is compiled from a copy (build/gen) without its
#     import of ECMAScriptRegularExpressionFactory, which only its javadoc uses.
#   - jackson-core: fastdoubleparser is compiled as its own package ch.randelshofer.fastdoubleparser (jackson-core's
#     Maven build shades it into a versioned package; no other copy is on this classpath); its sources are
#     fastdoubleparser-dev with fastdoubleparser-java8's FastDoubleSwar, FastIntegerMath and BigSignificand (the
#     Java 8 variants; FastDoubleVector, which needs jdk.incubator.vector, is left out).
#   - the PackageVersion.java.in templates of jackson-core, jackson-databind and jackson-dataformat-yaml are filled
#     in with sed, as their Maven build does.
# Version note: the SDK's pom asks for Jackson 2.21.1 and json-schema-validator 2.0.4 needs >= 2.15; the newest 2.x
# Jackson release in reach is 2.18.3 (the one used throughout).
set -euo pipefail

D="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"      # samples/gen/ecosystem/javasdk
SRC="$D/src"
B="$D/build"
C="$B/classes"
mkdir -p "$SRC" "$C"
J=/usr/share/java
JFLAGS=(-nowarn -encoding UTF-8 -proc:none -J-Xmx768m -Xlint:none)

# ------------------------------------------------------------------------------------------------ sources
lay_out() {   # NAME REPO COMMIT TAG PATHS...
    local name=$1 repo=$2 commit=$3; shift 4
    [ -f "$SRC/$name/.commit" ] && [ "$(cat "$SRC/$name/.commit")" = "$commit" ] && return 0
    local gd="${JAVASDK_GITDIRS:-/nonexistent}/${repo/\//+}/repo"
    if [ ! -d "$gd" ]; then
        gd="$SRC/.git/${repo/\//+}.git"
        [ -d "$gd" ] || git clone -q --bare --filter=blob:none "https://github.com/$repo.git" "$gd"
        git --git-dir="$gd" cat-file -e "$commit^{commit}" 2>/dev/null || git --git-dir="$gd" fetch -q origin "$commit"
    fi
    rm -rf "${SRC:?}/$name"; mkdir -p "$SRC/$name"
    # an unrelated broken blob elsewhere in a mirror makes git archive complain although the PATHS are complete
    git --git-dir="$gd" archive "$commit" "$@" | tar -x -C "$SRC/$name"
    echo "$commit" >"$SRC/$name/.commit"
    echo "laid out src/$name ($repo $commit)"
}
while read -r name repo commit tag paths; do
    case "$name" in ''|\#*) continue ;; esac
    # shellcheck disable=SC2086
    lay_out "$name" "$repo" "$commit" "$tag" $paths
done <"$D/SOURCES"

# ------------------------------------------------------------------------------------------------ compile
# jc NAME CLASSPATH FILES-LIST [extra javac args]: compile unless build/classes/NAME exists; copy resources given in
# RES (a directory) afterwards.
jc() {
    local name=$1 cp=$2 list=$3; shift 3
    [ -f "$C/$name/.done" ] && return 0
    rm -rf "${C:?}/$name"; mkdir -p "$C/$name"
    echo "javac $name ($(wc -l <"$list") files)"
    javac "${JFLAGS[@]}" -d "$C/$name" -cp "$cp" "$@" @"$list" 2>&1 | grep -vE '^Note:' || true
    [ -n "$(find "$C/$name" -name '*.class' -print -quit)" ] || { echo "javac $name failed" >&2; exit 1; }
    touch "$C/$name/.done"
}
files() { find "$@" -name '*.java' ! -name module-info.java ! -name package-info.java | sort; }
pkgver() {    # TEMPLATE GROUP ARTIFACT VERSION -> the .java beside it, in build/gen
    local out="$B/gen/$3/$(dirname "${1#*/src/main/java/}")"
    mkdir -p "$out"
    sed -e "s/@package@/$(dirname "${1#*/src/main/java/}" | tr / .)/" -e "s/@projectversion@/$4/" \
        -e "s/@projectgroupid@/$2/" -e "s/@projectartifactid@/$3/" "$1" >"$out/PackageVersion.java"
    echo "$out/PackageVersion.java"
}
L="$B/lists"; mkdir -p "$L"

# reactive-streams 1.0.4 (with the java9 FlowAdapters)
files "$SRC/reactive-streams/api/src/main" >"$L/rs"
jc reactive-streams "" "$L/rs"

# reactor-core 3.7.0
RC="$SRC/reactor-core/reactor-core/src/main"
{ files "$RC/java" | grep -vE '/ReactorBlockHoundIntegration\.java$|/publisher/CallSiteSupplierFactory\.java$'
  echo "$RC/java11/reactor/core/publisher/CallSiteSupplierFactory.java"; } >"$L/reactor"
MSP="$SRC/micrometer/micrometer-core/src/main/java:$SRC/micrometer/micrometer-commons/src/main/java"
MSP="$MSP:$SRC/micrometer/micrometer-observation/src/main/java:$SRC/context-propagation/context-propagation/src/main/java"
jc reactor-core "$C/reactive-streams:$J/jsr305.jar:$J/slf4j-api.jar" "$L/reactor" -implicit:none -sourcepath "$MSP"

# Jackson 2.18.3: annotations, core (+ fastdoubleparser 1.0.90), databind, dataformat-yaml (+ snakeyaml 2.3)
files "$SRC/jackson-annotations/src/main/java" >"$L/ja"
jc jackson-annotations "" "$L/ja"
FDP="$SRC/fastdoubleparser"
{ files "$FDP/fastdoubleparser-dev/src/main" | grep -vE '/(FastDoubleSwar|FastIntegerMath|BigSignificand|FastDoubleVector)\.java$'
  files "$FDP/fastdoubleparser-java8/src/main"; } >"$L/fdp"
jc fastdoubleparser "" "$L/fdp"
{ files "$SRC/jackson-core/src/main/java"
  pkgver "$SRC/jackson-core/src/main/java/com/fasterxml/jackson/core/json/PackageVersion.java.in" com.fasterxml.jackson.core jackson-core 2.18.3; } >"$L/jcore"
jc jackson-core "$C/fastdoubleparser" "$L/jcore"
{ files "$SRC/jackson-databind/src/main/java"
  pkgver "$SRC/jackson-databind/src/main/java/com/fasterxml/jackson/databind/cfg/PackageVersion.java.in" com.fasterxml.jackson.core jackson-databind 2.18.3; } >"$L/jdb"
jc jackson-databind "$C/jackson-annotations:$C/jackson-core" "$L/jdb"
files "$SRC/snakeyaml/src/main/java" >"$L/snake"
jc snakeyaml "" "$L/snake"
{ files "$SRC/jackson-dataformat-yaml/yaml/src/main/java"
  pkgver "$SRC/jackson-dataformat-yaml/yaml/src/main/java/com/fasterxml/jackson/dataformat/yaml/PackageVersion.java.in" com.fasterxml.jackson.dataformat jackson-dataformat-yaml 2.18.3; } >"$L/jyaml"
JACKSON="$C/jackson-annotations:$C/jackson-core:$C/jackson-databind"
jc jackson-dataformat-yaml "$JACKSON:$C/snakeyaml" "$L/jyaml"

# itu 1.14.0, json-schema-validator 2.0.4
files "$SRC/itu/src/main/java" >"$L/itu"
jc itu "" "$L/itu"
JSV="$SRC/json-schema-validator/src/main/java/com/networknt/schema"
mkdir -p "$B/gen/json-schema-validator"   # SchemaRegistryConfig imports ECMAScriptRegularExpressionFactory for its javadoc only
grep -v '^import com.networknt.schema.regex.ECMAScriptRegularExpressionFactory;' "$JSV/SchemaRegistryConfig.java" \
    >"$B/gen/json-schema-validator/SchemaRegistryConfig.java"
{ files "$SRC/json-schema-validator/src/main/java" \
      | grep -vE '/regex/(Joni[^/]*|GraalJS[^/]*|ECMAScriptRegularExpressionFactory)\.java$|/schema/SchemaRegistryConfig\.java$'
  echo "$B/gen/json-schema-validator/SchemaRegistryConfig.java"; } >"$L/jsv"
jc json-schema-validator "$JACKSON:$C/jackson-dataformat-yaml:$C/itu:$J/slf4j-api.jar" "$L/jsv"

# the SDK: mcp-core, mcp-json-jackson2
SDK="$SRC/java-sdk"
files "$SDK/mcp-core/src/main/java" >"$L/mcp-core"
DEPS="$C/reactive-streams:$C/reactor-core:$JACKSON:$J/slf4j-api.jar"
jc mcp-core "$DEPS:$J/tomcat10-servlet-api.jar" "$L/mcp-core"
files "$SDK/mcp-json-jackson2/src/main/java" >"$L/mcp-json-jackson2"
jc mcp-json-jackson2 "$DEPS:$C/mcp-core:$C/json-schema-validator" "$L/mcp-json-jackson2"

# resources: the services files that make McpJsonDefaults find the Jackson 2 mapper and validator; the
# validator's bundled meta-schemas and messages; jackson's own services
copy_res() { [ -d "$1" ] && cp -r "$1/." "$2/"; return 0; }
copy_res "$SDK/mcp-json-jackson2/src/main/resources" "$C/mcp-json-jackson2"
copy_res "$SRC/json-schema-validator/src/main/resources" "$C/json-schema-validator"
copy_res "$SRC/jackson-core/src/main/resources" "$C/jackson-core"
copy_res "$SRC/jackson-databind/src/main/resources" "$C/jackson-databind"
copy_res "$SRC/jackson-dataformat-yaml/yaml/src/main/resources" "$C/jackson-dataformat-yaml"

# the group's programs
TOMCAT="$J/tomcat10-servlet-api.jar:$J/tomcat10-catalina.jar:$J/tomcat10-coyote.jar:$J/tomcat10-util.jar"
TOMCAT="$TOMCAT:$J/tomcat10-util-scan.jar:$J/tomcat10-juli.jar:$J/tomcat10-api.jar:$J/tomcat10-annotations-api.jar"
TOMCAT="$TOMCAT:$J/tomcat10-jaspic-api.jar"
ALL="$DEPS:$C/mcp-core:$C/mcp-json-jackson2:$C/json-schema-validator:$C/itu:$C/jackson-dataformat-yaml:$C/snakeyaml"
ALL="$ALL:$C/fastdoubleparser:$TOMCAT:$J/slf4j-simple.jar"
ls "$D"/*.java >"$L/app"
rm -f "$C/app/.done"
jc app "$ALL" "$L/app"
echo "$ALL:$C/app" >"$B/classpath"
echo "built: build/classpath lists the run-time classpath"
