# Sourced by ci/check-chart.sh, ci/show-example.sh and ci/local-cluster.sh: the cached launcher that starts a command
# with java directly, as a tool starts, instead of through Maven. A Maven run builds the command (compile) and writes
# its module's runtime classpath to $launcher/classpath; write_launcher turns every classes directory on it into a jar
# (a class-data archive takes classes from jars only; the first jar registers UnpackedHelmLibrary as helm-java's native
# library) and writes $launcher/launch-classpath; launcher_java starts a main class on it with C1 only and the serial
# collector (a command of seconds: C2 and G1's threads cost more than they gain) and the class-data archive the first
# direct run wrote at its exit.
# Two launchers, one directory each: the library's command (ci/check-chart.sh, dev.nimchart.CheckChart: chart-tests'
# classes alone, built by chart-tests' pom, exec@check-chart-classpath) and this repository's commands
# (use_commands_launcher: ci/show-example.sh and ci/local-cluster.sh, dev.nimchart.tools.commands in chart-tools, built
# with -pl chart-tools -am, exec@commands-classpath: chart-tools' classes and the library's). Apart, because the
# class-data archive holds the classes of the command whose run wrote it, and because an edit of chart-tools or a
# chart-tools that does not compile must not send the library's command back through Maven.
# Needs: $repo (the repository root). Cold cost: one Maven compile of the launcher's modules (the first run, and after
# a pom, a module's main sources, ci/go.mod, ci/crds/ or ci/fetch-crds.sh changed); warm: a find over those inputs.

# The launcher's directory: NIM_CHECK_CHART_LAUNCHER, else chart-tests/target/check-chart-launcher.
launcher=${NIM_CHECK_CHART_LAUNCHER:-$repo/chart-tests/target/check-chart-launcher}
launcher_defaults=()
# What the launcher is built from: a change to any of them makes it stale.
launcher_inputs=("$repo/pom.xml" "$repo/chart-tests/pom.xml" "$repo/chart-tests/src/main" "$repo/ci/go.mod" "$repo/ci/fetch-crds.sh" "$repo/ci/crds")
# The working directory a command starts in (the one Maven's exec executions give it: its module's).
launcher_cwd=$repo/chart-tests

# This repository's commands' launcher instead (chart-tools with the library): its directory, NIM_COMMANDS_LAUNCHER,
# else chart-tools/target/commands-launcher; chart-tools' pom and main sources are inputs too.
use_commands_launcher() {
  launcher=${NIM_COMMANDS_LAUNCHER:-$repo/chart-tools/target/commands-launcher}
  launcher_inputs+=("$repo/chart-tools/pom.xml" "$repo/chart-tools/src/main")
  launcher_cwd=$repo/chart-tools
}

# ensure_commands_launcher NAME: builds the commands' launcher with Maven when it is not current (NIM_MAVEN_OFFLINE=1:
# with -o), saying so on standard error as NAME; on a failed build prints Maven's errors and the log's path, returns 1.
ensure_commands_launcher() {
  local name=$1 log
  launcher_current && return 0
  mkdir -p "$launcher"
  log=$(mktemp "${TMPDIR:-/tmp}/$name-build.XXXXXX")
  echo "$name: building the command with Maven (first run, or chart-tests, chart-tools or a pom changed since the last build)" >&2
  touch "$launcher/stamp.$$"
  # compile also fetches the CRDs the cluster gets (ci/fetch-crds.sh); commands-classpath writes the launcher's classpath
  if mvn -B -Dstyle.color=never ${NIM_MAVEN_OFFLINE:+-o} -f "$repo/pom.xml" -pl chart-tools -am compile exec:exec@commands-classpath \
      -Dnim.launcher.dir="$launcher" >"$log" 2>&1 && write_launcher >>"$log" 2>&1; then
    mv "$launcher/stamp.$$" "$launcher/stamp"
    rm -f "$log"
  else
    rm -f "$launcher/stamp.$$"
    echo "$name: the build failed; Maven said:" >&2
    grep -E '^\[ERROR\]' "$log" | grep -vE '^\[ERROR\] *(->|$|Re-run|For more|\[Help|To see the full)' | sed -n 1,5p | sed 's/^/  /' >&2 || true
    echo "  (full log: $log)" >&2
    return 1
  fi
}

# Whether the launcher a Maven run left is current: built after every input of the build changed, every classpath
# entry still there.
launcher_current() {
  [[ -f "$launcher/stamp" && -f "$launcher/launch-classpath" ]] || return 1
  local newer entry entries
  newer=$(find "${launcher_inputs[@]}" -newer "$launcher/stamp" -print -quit 2>/dev/null) || return 1
  [[ -z "$newer" ]] || return 1
  IFS=: read -r -a entries <"$launcher/launch-classpath"
  for entry in "${entries[@]}"; do
    [[ -e "$entry" ]] || return 1
  done
}

# The launcher, made of what the Maven run wrote: each classes directory of the classpath as a jar named after its
# module (chart-tools.jar, chart-tests.jar), the first of them also registering UnpackedHelmLibrary as helm-java's
# native library, first on the classpath; every other entry as it is.
write_launcher() {
  local entries entry jar_tool services name extra cp=()
  IFS=: read -r -a entries <"$launcher/classpath"
  [[ ${#entries[@]} -gt 0 && -d "${entries[0]}" ]] || return 1
  jar_tool=$(dirname "$(readlink -f "$(command -v java)")")/jar
  [[ -x "$jar_tool" ]] || jar_tool=jar
  services="$launcher/services.$$"
  mkdir -p "$services/META-INF/services"
  echo dev.nimchart.render.UnpackedHelmLibrary >"$services/META-INF/services/com.marcnuri.helm.jni.NativeLibrary"
  extra=(-C "$services" .)
  for entry in "${entries[@]}"; do
    if [[ -d "$entry" ]]; then
      name=$(basename "$(dirname "$(dirname "$entry")")") # <module>/target/classes
      "$jar_tool" --create --file "$launcher/$name.jar.$$" -C "$entry" . "${extra[@]}" || { rm -rf "$services" "$launcher/$name.jar.$$"; return 1; }
      mv "$launcher/$name.jar.$$" "$launcher/$name.jar"
      cp+=("$launcher/$name.jar")
      extra=()
    else
      cp+=("$entry")
    fi
  done
  rm -rf "$services"
  printf '%s\n' "$(IFS=:; echo "${cp[*]}")" >"$launcher/launch-classpath.$$"
  mv "$launcher/launch-classpath.$$" "$launcher/launch-classpath"
  rm -f "$launcher/classes.jsa"
}

# launcher_java KUBECONFIG_FILE JAVA_ARGS...: java on the launcher's classpath in $launcher_cwd (the working directory
# Maven's exec executions give a command), CI=true, the lookup stub's kubeconfig, Helm's unpacked library, then the
# caller's defaults (the array launcher_defaults: the system properties its Maven execution gives), then the -Dnim.*
# words of MAVEN_OPTS (as Maven would take them; a later -D wins), then JAVA_ARGS: this run's own properties, the main
# class and its arguments.
launcher_java() {
  local kubeconfig=$1 opts=() maven_opts=() jsa_opts=() word jsa="$launcher/classes.jsa" dump="" status=0
  shift
  read -r -a maven_opts <<<"${MAVEN_OPTS:-}"
  for word in "${maven_opts[@]}"; do
    [[ "$word" == -Dnim.* ]] && opts+=("$word")
  done
  if [[ -f "$jsa" ]]; then
    jsa_opts=(-XX:SharedArchiveFile="$jsa")
  else
    dump="$jsa.$$"
    jsa_opts=(-XX:ArchiveClassesAtExit="$dump")
  fi
  # Helm's Go runtime collects garbage less often (as the tests run it, chart-tests/pom.xml nim.test.gogc and
  # nim.test.gomemlimit): about 6% less CPU for the offline command; a value the user set wins
  (cd "$launcher_cwd" && CI=true KUBECONFIG="$kubeconfig" GOGC="${GOGC:-400}" GOMEMLIMIT="${GOMEMLIMIT:-1GiB}" exec java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC \
    -Xshare:auto '-Xlog:cds*=off' "${jsa_opts[@]}" -cp "$(cat "$launcher/launch-classpath")" \
    "-Dnim.crds.dir=$repo/chart-tests/target/classes/dev/nimchart/checks/crds" "-Dnim.ci.dir=$repo/ci" \
    "-Dnim.helm.library.dir=$launcher/helm" "${launcher_defaults[@]}" "${opts[@]}" "$@") || status=$?
  if [[ -n "$dump" && -s "$dump" ]]; then
    mv "$dump" "$jsa"
  else
    rm -f "$dump"
  fi
  return "$status"
}
