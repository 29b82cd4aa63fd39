"""PyGithub (Debian's python3-github) against jst-tracker's code host: reads a repository, its pull
requests with their reviews, comments, commits and files, every date on them, and writes one
comment. Driven by pygithub.test.ts; prints one JSON object. The token is never printed."""
import json
import os

from github import Github


def when(d):
    """A parsed datetime as GitHub's form (PyGithub 1.55 parses to naive UTC), or None."""
    return None if d is None else d.strftime("%Y-%m-%dT%H:%M:%SZ")


def main():
    cfg = json.loads(os.environ["JST_PYGITHUB_CONFIG"])
    g = Github(login_or_token=cfg["token"], base_url=cfg["api"], verify=cfg.get("ca", True), retry=None)
    me = g.get_user()
    repo = g.get_repo(cfg["repo"])
    out = {
        "user": {"login": me.login, "created_at": when(me.created_at)},
        "repo": {
            "full_name": repo.full_name,
            "default_branch": repo.default_branch,
            "created_at": when(repo.created_at),
            "updated_at": when(repo.updated_at),
            "pushed_at": when(repo.pushed_at),
        },
        "pulls": [],
    }
    for p in repo.get_pulls(state="all", sort="created", direction="asc"):
        pull = repo.get_pull(p.number)
        out["pulls"].append(
            {
                "number": pull.number,
                "title": pull.title,
                "state": pull.state,
                "merged": pull.merged,
                "head": pull.head.ref,
                "base": pull.base.ref,
                "created_at": when(pull.created_at),
                "updated_at": when(pull.updated_at),
                "closed_at": when(pull.closed_at),
                "merged_at": when(pull.merged_at),
                "reviews": [
                    {"user": r.user.login, "state": r.state, "body": r.body, "submitted_at": when(r.submitted_at)}
                    for r in pull.get_reviews()
                ],
                "comments": [
                    {"user": c.user.login, "body": c.body, "created_at": when(c.created_at), "updated_at": when(c.updated_at)}
                    for c in pull.get_issue_comments()
                ],
                "commits": [
                    {"sha": c.sha, "author_date": when(c.commit.author.date), "committer_date": when(c.commit.committer.date)}
                    for c in pull.get_commits()
                ],
                "files": [f.filename for f in pull.get_files()],
            }
        )
    first = repo.get_pull(out["pulls"][0]["number"])
    made = first.create_issue_comment("written by PyGithub")
    out["written"] = {"id": made.id, "created_at": when(made.created_at)}
    try:
        repo.get_pull(99999)
        out["missing"] = None
    except Exception as e:  # GithubException: its status and GitHub's message
        out["missing"] = {"status": getattr(e, "status", None), "message": (getattr(e, "data", None) or {}).get("message")}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
