"""The workspace's read-only material, refused by the Jupyter server itself.

solutions/, updates/, docs/ and README.md in the workspace are copies that the course writes
afresh on every start (bpe_ref.course.workspace). Their files are read only, but root ignores file
modes, so JupyterLab run as root (a container) saved a solution and said "Saving completed".
`python -m bpe_ref.course.lab` starts JupyterLab with this contents manager instead: it tells
JupyterLab that those files are not writable (Ctrl+S then says "… is read-only", and autosave
leaves them alone) and refuses any save, upload, rename or delete there, whoever runs the server,
with a message that says where the learner's work belongs.
"""

from jupyter_server.services.contents.largefilemanager import AsyncLargeFileManager
from tornado import web

READ_ONLY = ("solutions", "updates", "docs", "README.md")  # the top-level names the course owns


def is_course_material(path):
    """Whether an API path ('solutions/04_naive_bpe.ipynb', '/docs') is one the course owns.

    >>> is_course_material("solutions/04_naive_bpe.ipynb"), is_course_material("04_naive_bpe.ipynb")
    (True, False)
    """
    parts = [part for part in str(path).replace("\\", "/").split("/") if part not in ("", ".")]
    return bool(parts) and parts[0] in READ_ONLY


def refusal(path, action="saved"):
    """The error the server answers with; JupyterLab shows its text in the error dialog."""
    return web.HTTPError(403, f"{path.strip('/')} is read only and cannot be {action}: the course writes it "
                              "afresh on every start. Save your work in your own copy of the workbook, "
                              "in the top folder of the file browser.")


class CourseContentsManager(AsyncLargeFileManager):
    """JupyterLab's usual file manager, with the course's material read only for everyone."""

    def is_writable(self, path):
        return not is_course_material(path) and super().is_writable(path)

    async def save(self, model, path=""):
        if is_course_material(path):
            raise refusal(path)
        return await super().save(model, path)

    async def rename_file(self, old_path, new_path):
        for path in (old_path, new_path):
            if is_course_material(path):
                raise refusal(path, "moved or renamed")
        return await super().rename_file(old_path, new_path)

    async def delete_file(self, path):
        if is_course_material(path):
            raise refusal(path, "deleted")
        return await super().delete_file(path)

    async def create_checkpoint(self, path):
        if is_course_material(path):
            raise refusal(path, "checkpointed")
        return await super().create_checkpoint(path)

    async def restore_checkpoint(self, checkpoint_id, path):
        if is_course_material(path):
            raise refusal(path, "restored from a checkpoint")
        return await super().restore_checkpoint(checkpoint_id, path)
