// Random playouts with ggp-base's prover state machine, for
// bench/ggp-vs-ggp-base.sh. This harness is bouton's; it calls only the
// public API of Stanford's ggp-base (a separate project, built outside this
// repository: see build.sh beside this file).
//
//   java -cp CLASSPATH Playouts FILE [--seconds S] [--warmup S] [--max-steps N]
//   java -cp CLASSPATH Playouts FILE --trace SEED [--max-steps N]
//   java -cp CLASSPATH Playouts FILE --propnet
//
// Playouts (the default): `ProverStateMachine` is initialised with the rule
// sheet, then random playouts run from the initial state, first for the
// warm-up (default 3 s of wall clock, not counted: the JIT compiler's work),
// then for the measured period (default 10 s). Each transition is what
// bouton's compiled machine does in a playout: the terminal test, every
// role's legal moves, a uniformly random joint move, the next state; the
// goals of every role are asked in each terminal state reached. A playout
// stops at a terminal state, at a role without legal moves, or after
// --max-steps joint moves (default 200). The last line reads
//   result transitions=T playouts=P goals=G wall=W thread_cpu=C process_cpu=Q init=I
// (seconds; thread_cpu is the playout thread's CPU time, process_cpu the
// whole JVM's, with its compiler and collector threads).
//
// --trace SEED: one random playout, the joint moves drawn by
// java.util.Random(SEED) from each role's legal moves sorted as strings;
// prints, for each state, tab-separated lines
//   step K / state FACT... / legal ROLE MOVE... / terminal yes|no /
//   goals G... (terminal states only) / joint MOVE... (one per role)
// and finally `end REASON`. Terms are printed in KIF with single spaces,
// `(cell 1 1 b)`; facts without their `true`.
//
// --propnet: builds ggp-base's propositional network
// (`OptimizingPropNetFactory.create`) and prints its build time and size.
// ggp-base ships no working propnet state machine
// (`SamplePropNetStateMachine` is a skeleton for students), so nothing is
// played on it.
//
// Any error: one line on standard error, exit code 2.

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import org.ggp.base.util.game.Game;
import org.ggp.base.util.gdl.factory.GdlFactory;
import org.ggp.base.util.gdl.factory.exceptions.GdlFormatException;
import org.ggp.base.util.gdl.grammar.Gdl;
import org.ggp.base.util.gdl.grammar.GdlSentence;
import org.ggp.base.util.propnet.architecture.PropNet;
import org.ggp.base.util.propnet.factory.OptimizingPropNetFactory;
import org.ggp.base.util.statemachine.MachineState;
import org.ggp.base.util.statemachine.Move;
import org.ggp.base.util.statemachine.Role;
import org.ggp.base.util.statemachine.StateMachine;
import org.ggp.base.util.statemachine.exceptions.GoalDefinitionException;
import org.ggp.base.util.statemachine.exceptions.MoveDefinitionException;
import org.ggp.base.util.statemachine.implementation.prover.ProverStateMachine;
import org.ggp.base.util.symbol.factory.SymbolFactory;
import org.ggp.base.util.symbol.factory.exceptions.SymbolFormatException;
import org.ggp.base.util.symbol.grammar.Symbol;
import org.ggp.base.util.symbol.grammar.SymbolList;

public final class Playouts {
    private static final String USAGE =
        "usage: Playouts FILE [--seconds S] [--warmup S] [--max-steps N] | FILE --trace SEED [--max-steps N] | FILE --propnet";

    public static void main(String[] args) {
        try {
            run(args);
        } catch (Exception e) {
            String message = e.getMessage() == null ? e.toString() : e.getMessage();
            System.err.println("error: " + message.replace('\n', ' '));
            System.exit(2);
        }
    }

    private static void run(String[] args) throws Exception {
        String file = null;
        double seconds = 10.0;
        double warmup = 3.0;
        int maxSteps = 200;
        Long traceSeed = null;
        boolean propnet = false;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--seconds": seconds = Double.parseDouble(value(args, ++i, a)); break;
                case "--warmup": warmup = Double.parseDouble(value(args, ++i, a)); break;
                case "--max-steps": maxSteps = Integer.parseInt(value(args, ++i, a)); break;
                case "--trace": traceSeed = Long.parseLong(value(args, ++i, a)); break;
                case "--propnet": propnet = true; break;
                default:
                    if (a.startsWith("--") || file != null) {
                        throw new IllegalArgumentException("unexpected argument " + a + "; " + USAGE);
                    }
                    file = a;
            }
        }
        if (file == null) {
            throw new IllegalArgumentException(USAGE);
        }
        String text;
        try {
            text = new String(Files.readAllBytes(Paths.get(file)), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read " + file + " (" + e.getClass().getSimpleName() + ")");
        }
        // As Game.getRules does, but with the parse error reported on one line.
        List<Gdl> rules = new ArrayList<>();
        try {
            Symbol symbols = SymbolFactory.create(Game.preprocessRulesheet(text));
            if (!(symbols instanceof SymbolList)) {
                throw new IllegalArgumentException(file + ": not a list of rules");
            }
            SymbolList list = (SymbolList) symbols;
            for (int i = 0; i < list.size(); i++) {
                rules.add(GdlFactory.create(list.get(i)));
            }
        } catch (GdlFormatException | SymbolFormatException e) {
            throw new IllegalArgumentException(file + ": ggp-base cannot read the rule sheet: " + e);
        }
        if (rules.isEmpty()) {
            throw new IllegalArgumentException(file + ": no rules");
        }
        if (propnet) {
            buildPropnet(file, rules);
            return;
        }
        long initStarted = System.nanoTime();
        StateMachine machine = new ProverStateMachine();
        machine.initialize(rules);
        MachineState initial = machine.getInitialState();
        double init = (System.nanoTime() - initStarted) / 1e9;
        if (traceSeed != null) {
            trace(machine, initial, traceSeed, maxSteps);
        } else {
            measure(file, machine, initial, seconds, warmup, maxSteps, init);
        }
    }

    private static String value(String[] args, int i, String flag) {
        if (i >= args.length) {
            throw new IllegalArgumentException(flag + " needs a value; " + USAGE);
        }
        return args[i];
    }

    /** Counts of one period of playouts. */
    private static final class Counts {
        long transitions;
        long playouts;
        long goals;
    }

    private static void measure(String file, StateMachine machine, MachineState initial, double seconds,
                                double warmup, int maxSteps, double init) throws Exception {
        Random random = new Random(1);
        playFor(machine, initial, warmup, maxSteps, random);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        com.sun.management.OperatingSystemMXBean os =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long thread0 = threads.getCurrentThreadCpuTime();
        long process0 = os.getProcessCpuTime();
        long wall0 = System.nanoTime();
        Counts c = playFor(machine, initial, seconds, maxSteps, random);
        double wall = (System.nanoTime() - wall0) / 1e9;
        double threadCpu = (threads.getCurrentThreadCpuTime() - thread0) / 1e9;
        double processCpu = (os.getProcessCpuTime() - process0) / 1e9;
        System.out.printf("%s: ggp-base ProverStateMachine, %d playouts, %d transitions in %.2f s: %.0f transitions/s,"
                + " %.0f per CPU second of the playout thread, %.0f per CPU second of the JVM%n",
            file, c.playouts, c.transitions, wall, c.transitions / wall, c.transitions / threadCpu,
            c.transitions / processCpu);
        System.out.printf("result transitions=%d playouts=%d goals=%d wall=%.3f thread_cpu=%.3f process_cpu=%.3f init=%.3f%n",
            c.transitions, c.playouts, c.goals, wall, threadCpu, processCpu, init);
    }

    /** Random playouts from `initial` for `seconds` of wall clock. */
    private static Counts playFor(StateMachine machine, MachineState initial, double seconds, int maxSteps,
                                  Random random) throws Exception {
        Counts c = new Counts();
        long until = System.nanoTime() + (long) (seconds * 1e9);
        List<Role> roles = machine.getRoles();
        while (System.nanoTime() < until) {
            MachineState state = initial;
            c.playouts++;
            for (int step = 0; step < maxSteps && System.nanoTime() < until; step++) {
                if (machine.isTerminal(state)) {
                    for (Role role : roles) {
                        try {
                            machine.getGoal(state, role);
                        } catch (GoalDefinitionException e) {
                            // Counted all the same: the question was asked.
                        }
                    }
                    c.goals++;
                    break;
                }
                List<Move> joint = new ArrayList<>(roles.size());
                try {
                    for (Role role : roles) {
                        List<Move> legal = machine.getLegalMoves(state, role);
                        joint.add(legal.get(random.nextInt(legal.size())));
                    }
                } catch (MoveDefinitionException e) {
                    break;
                }
                state = machine.getNextState(state, joint);
                c.transitions++;
            }
        }
        return c;
    }

    private static void trace(StateMachine machine, MachineState state, long seed, int maxSteps) throws Exception {
        Random random = new Random(seed);
        List<Role> roles = machine.getRoles();
        StringBuilder out = new StringBuilder();
        out.append("roles");
        for (Role role : roles) {
            out.append('\t').append(kif(role.toString()));
        }
        System.out.println(out);
        for (int step = 0; ; step++) {
            System.out.println("step\t" + step);
            List<String> facts = new ArrayList<>();
            for (GdlSentence fact : state.getContents()) {
                facts.add(kif(fact.get(0).toString()));
            }
            System.out.println(line("state", facts));
            List<String> joint = new ArrayList<>();
            List<Move> jointMoves = new ArrayList<>();
            boolean stuck = false;
            for (int r = 0; r < roles.size(); r++) {
                List<Move> legal;
                try {
                    legal = new ArrayList<>(machine.getLegalMoves(state, roles.get(r)));
                } catch (MoveDefinitionException e) {
                    legal = new ArrayList<>();
                }
                legal.sort((a, b) -> kif(a.toString()).compareTo(kif(b.toString())));
                List<String> names = new ArrayList<>();
                for (Move m : legal) {
                    names.add(kif(m.toString()));
                }
                System.out.println(line("legal\t" + r, names));
                if (legal.isEmpty()) {
                    stuck = true;
                } else {
                    Move m = legal.get(random.nextInt(legal.size()));
                    jointMoves.add(m);
                    joint.add(kif(m.toString()));
                }
            }
            boolean terminal = machine.isTerminal(state);
            System.out.println("terminal\t" + (terminal ? "yes" : "no"));
            if (terminal) {
                List<String> goals = new ArrayList<>();
                for (Role role : roles) {
                    try {
                        goals.add(Integer.toString(machine.getGoal(state, role)));
                    } catch (GoalDefinitionException e) {
                        goals.add("none");
                    }
                }
                System.out.println("goals\t" + String.join("\t", goals));
                System.out.println("end\tterminal");
                return;
            }
            if (stuck) {
                System.out.println("end\ta role has no legal move");
                return;
            }
            if (step >= maxSteps) {
                System.out.println("end\tstep limit");
                return;
            }
            System.out.println("joint\t" + String.join("\t", joint));
            state = machine.getNextState(state, jointMoves);
        }
    }

    private static void buildPropnet(String file, List<Gdl> rules) throws Exception {
        long started = System.nanoTime();
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long cpu0 = threads.getCurrentThreadCpuTime();
        PropNet net = OptimizingPropNetFactory.create(rules);
        double wall = (System.nanoTime() - started) / 1e9;
        double cpu = (threads.getCurrentThreadCpuTime() - cpu0) / 1e9;
        System.out.printf("%s: ggp-base OptimizingPropNetFactory, built in %.2f s (%.2f s CPU of the building thread):"
                + " %d components, %d propositions, %d base, %d inputs, %d and, %d or, %d not, %d links%n",
            file, wall, cpu, net.getComponents().size(), net.getPropositions().size(),
            net.getBasePropositions().size(), net.getInputPropositions().size(), net.getNumAnds(),
            net.getNumOrs(), net.getNumNots(), net.getNumLinks());
        System.out.printf("result propnet_wall=%.3f propnet_cpu=%.3f components=%d%n", wall, cpu,
            net.getComponents().size());
    }

    /** ggp-base's `( cell 1 1 b )` as `(cell 1 1 b)`. */
    private static String kif(String s) {
        return s.replaceAll("\\s+", " ").replace("( ", "(").replace(" )", ")").trim();
    }

    private static String line(String head, List<String> items) {
        List<String> sorted = new ArrayList<>(items);
        Collections.sort(sorted);
        StringBuilder sb = new StringBuilder(head);
        for (String s : sorted) {
            sb.append('\t').append(s);
        }
        return sb.toString();
    }
}
